// @vitest-environment happy-dom
import "fake-indexeddb/auto";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetOfflineDbForTests } from "../../../lib/offline-db.ts";
import { resetCheckInQueueForTests } from "../check-in-queue.ts";
import { useDoorStore } from "../door-store.ts";
import { DoorView } from "./door-view.tsx";

// The door's two reads as the phone shows them (docs/decisions/049-one-hook-for-a-reply.md, "The
// door"): the store keeps useReply's states and ReplyView shows them, loading, the error with
// **Try again**, and the roster once it comes.

/** Three days ago: an ended night, which the door never picks by itself, so the test picks it. */
const ended = () => new Date(Date.now() - 3 * 24 * 60 * 60 * 1000).toISOString();

/** The API at the network edge: the events, and the roster answering `rosterStatus` until it is 200. */
function fakeServer() {
  const server = { rosterStatus: 500, rosterCalls: 0 };
  const event = { id: 7, event_name: "Harbour Mixer", EventDateTime: ended(), event_status: "ended" };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      if (url === "/api/admin-events") return Response.json([{ ...event, time_zone: "Australia/Sydney" }]);
      if (url === "/api/admin-event/7/roster") {
        server.rosterCalls++;
        if (server.rosterStatus !== 200)
          return Response.json({ success: false, error: "internal error" }, { status: server.rosterStatus });
        return Response.json({
          event: { ...event, time_zone: "Australia/Sydney" },
          attendees: [
            {
              userID: 1,
              name: "Asha",
              gender: "female",
              thumbName: "a.jpg",
              phoneLast4: "1111",
              checkedInAt: null,
              age: 29,
            },
          ],
          refunded: [],
        });
      }
      return Response.json({ success: false, error: "not in this fake" }, { status: 404 });
    }),
  );
  return server;
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetOfflineDbForTests();
  resetCheckInQueueForTests();
  localStorage.clear();
  useDoorStore.setState(useDoorStore.getInitialState(), true);
});
afterEach(() => {
  cleanup();
  resetCheckInQueueForTests();
  vi.unstubAllGlobals();
});

describe("the door's reads", () => {
  it("loads the events, asks for one, says when its roster can't be read, and Try again reads it", async () => {
    const server = fakeServer();
    render(<DoorView />);
    screen.getByText("Loading events...");
    await screen.findByText("Choose an event to see who is coming.");

    fireEvent.change(screen.getByLabelText("Event"), { target: { value: "7" } });
    screen.getByText("Loading attendees...");
    const alert = (await screen.findByText("Couldn't load the attendees.")).closest("[role=alert]");
    expect(alert).not.toBeNull();
    expect(screen.queryByRole("list", { name: "Attendees" })).toBeNull();

    server.rosterStatus = 200;
    fireEvent.click(within(alert as HTMLElement).getByRole("button", { name: "Try again" }));
    screen.getByText("Loading attendees...");
    const list = await screen.findByRole("list", { name: "Attendees" });
    expect(within(list).getByText("Asha")).toBeTruthy();
    expect(screen.queryByText("Couldn't load the attendees.")).toBeNull();
    expect(server.rosterCalls).toBe(2);
  });
});
