// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminEventSummary } from "../admin-api.ts";
import { InviteCompose } from "./invite-compose.tsx";

// The Invite tab's counts (docs/decisions/049-one-hook-for-a-reply.md): read through useReply once
// typing pauses (300 ms), the last counts kept on screen while the next are read, and the error said.

const event = {
  id: 7,
  name: "Harbour Mixer",
  startsAt: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString(),
  timeZone: "Australia/Sydney",
  SeatsLeft: { male: 4, female: 4 },
} as unknown as AdminEventSummary;

/** The preview call at the network edge: counts by the text's length, or no connection at all. */
function fakeServer() {
  const server = { offline: false, previews: [] as { text: string; channels: string[] }[] };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url !== "/api/announcements/preview") throw new Error(`not in this fake: ${url}`);
      if (server.offline) throw new TypeError("Failed to fetch");
      const draft = JSON.parse(String(init?.body)) as { text: string; channels: string[] };
      server.previews.push({ text: draft.text, channels: draft.channels });
      const body = {
        recipients: { sms: draft.text.length % 10, email: 3 },
        sms: `${draft.text} Reply STOP to opt out`,
        email: { subject: "Harbour Mixer", text: draft.text, html: `<p>${draft.text}</p>` },
      };
      // Read without a stream, so the fake clock alone decides when it comes.
      return { ok: true, status: 200, headers: new Headers(), json: async () => body } as unknown as Response;
    }),
  );
  return server;
}

const counts = () => document.querySelector(".invite-recipients")?.textContent;
const pause = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the Invite tab's counts", () => {
  it("asks once typing pauses, keeps the last counts while the next are read, and says when it can't", async () => {
    const server = fakeServer();
    render(<InviteCompose event={event} eventId={7} confirm={async () => false} onSent={async () => {}} />);
    expect(counts()).toBe("Counting…");
    await pause(300);
    expect(server.previews).toHaveLength(1);
    expect(counts()).toMatch(/^To \d by text, 3 by email$/);

    // Typing: no call until it pauses, and the counts shown stay until the new ones come.
    const message = screen.getByLabelText("Message");
    fireEvent.change(message, { target: { value: "Hello" } });
    await pause(100);
    fireEvent.change(message, { target: { value: "Hello there" } });
    await pause(100);
    expect(counts()).toMatch(/^To \d by text, 3 by email$/);
    expect(server.previews).toHaveLength(1);
    await pause(300);
    expect(server.previews.map((p) => p.text)).toEqual([expect.any(String), "Hello there"]);
    expect(counts()).toBe("To 1 by text, 3 by email");

    server.offline = true;
    vi.spyOn(console, "warn").mockImplementation(() => {});
    fireEvent.change(message, { target: { value: "Hello again" } });
    await pause(300);
    expect(screen.getByRole("alert").textContent).toBe("Couldn't reach the server to count the audience.");

    fireEvent.click(screen.getByLabelText("Text message"));
    fireEvent.click(screen.getByLabelText("Email"));
    await pause(0);
    expect(screen.getByRole("alert").textContent).toBe(
      "Choose at least one way to send it: text message, email or both.",
    );
    expect(server.previews).toHaveLength(2);
  });
});
