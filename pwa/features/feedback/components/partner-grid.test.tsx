// @vitest-environment happy-dom
import "fake-indexeddb/auto";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetOfflineDbForTests } from "../../../lib/offline-db.ts";
import { resetTapQueueForTests, whenIdle } from "../tap-queue.ts";
import { PartnerGrid } from "./partner-grid.tsx";

const link = { userID: 1, eventID: 7, token: "tok" };
const partners = [
  { id: 2, username: "Anika", image_name: "a-thumb.jpg" },
  { id: 3, username: "Priya", image_name: "p-thumb.jpg" },
];

/** The API at the network edge; `offline` makes every call fail as a dropped connection would. */
function stubApi(list = partners) {
  const state = { offline: false, saves: [] as unknown[] };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      if (state.offline) throw new TypeError("Failed to fetch");
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      if (url === "/api/get-participants") return Response.json({ participants: list });
      state.saves.push(body);
      return Response.json({ success: true, feedback: body.feedback, clientTs: body.clientTs });
    }),
  );
  return state;
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetOfflineDbForTests();
  resetTapQueueForTests();
});
afterEach(async () => {
  cleanup();
  await whenIdle();
  resetTapQueueForTests();
  vi.unstubAllGlobals();
});

describe("the partner grid", () => {
  it("highlights the last choice at once and reports when every choice is saved", async () => {
    const api = stubApi();
    render(<PartnerGrid link={link} />);
    const like = await screen.findByRole("button", { name: "Like", description: "Priya" });
    const dislike = screen.getByRole("button", { name: "Dislike", description: "Priya" });
    expect(like.getAttribute("aria-pressed")).toBe("false");

    fireEvent.click(like);
    await waitFor(() => expect(like.getAttribute("aria-pressed")).toBe("true"));
    expect(dislike.getAttribute("aria-pressed")).toBe("false");
    fireEvent.click(dislike);
    await waitFor(() => expect(dislike.getAttribute("aria-pressed")).toBe("true"));
    expect(like.getAttribute("aria-pressed")).toBe("false");
    await screen.findByText("All choices saved");
    await whenIdle();
    expect(api.saves.at(-1)).toMatchObject({ toUserID: 3, feedback: "dislike" });
  });

  it("shows partners saved on the device and counts taps waiting while offline", async () => {
    const api = stubApi();
    const first = render(<PartnerGrid link={link} />);
    await screen.findByText("Anika");
    first.unmount();

    api.offline = true;
    render(<PartnerGrid link={link} />);
    await screen.findByText("Anika");
    expect(screen.getByText(/You're offline/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Like", description: "Anika" }));
    await screen.findByText("1 choice waiting to sync");
  });

  it("says so when there is nobody to rate", async () => {
    stubApi([]);
    render(<PartnerGrid link={link} />);
    await screen.findByText("No partners to rate yet");
  });

  it("explains a link that is missing its parts", () => {
    render(<PartnerGrid link={null} />);
    expect(screen.getByRole("alert").textContent).toContain("This feedback link is incomplete.");
  });
});
