// @vitest-environment happy-dom
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pinClock } from "../../../test/clock.ts";
import { resetOfflineDbForTests } from "../../lib/offline-db.ts";
import { openTicketLink, readTicketLink } from "./open-ticket-link.ts";
import { getTicket, listTickets } from "./ticket-store.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

/** POST /api/ticket at the network edge: one answer, every request recorded. */
function ticketApi(answer: { status: number; body: unknown } | "offline") {
  const calls: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (answer === "offline") throw new TypeError("Failed to fetch");
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { "content-type": "application/json" },
      });
    }),
  );
  return calls;
}

const ticket = {
  success: true,
  qrCodeImage: "data:image/png;base64,AAAA",
  uniqueCode: "ABCDEFGH23",
  eventName: "Garden Party",
  eventDate: "2031-05-03T08:00:00.000Z",
  eventLocation: "1 George St",
  time_zone: "Australia/Sydney",
  event_duration: 3,
  name: "Priya Sharma",
  phone: "+61412345678",
  userID: 7,
  eventID: 3,
  bookingId: 42,
  ticketToken: "tok",
};

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetOfflineDbForTests();
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the texted ticket link", () => {
  it("reads /tickets?add={bookingId}&t={token} and tells a cut-off link from none", () => {
    expect(readTicketLink(new URLSearchParams("add=42&t=abc_DEF-1"))).toEqual({ bookingId: 42, token: "abc_DEF-1" });
    expect(readTicketLink(new URLSearchParams(""))).toBeNull();
    for (const query of ["add=42", "t=abc", "add=abc&t=x", "add=0&t=x", "add=42&t=", `add=42&t=${"a".repeat(201)}`]) {
      expect(readTicketLink(new URLSearchParams(query)), query).toBe("incomplete");
    }
  });

  it("saves the ticket on this device in the shape the success page saves", async () => {
    const calls = ticketApi({ status: 200, body: ticket });
    const state = await openTicketLink({ bookingId: 42, token: "tok" });
    expect(calls).toEqual([{ url: "/api/ticket", body: { bookingId: 42, t: "tok" } }]);
    expect(state).toMatchObject({ status: "added", saved: true, ticket: { uniqueCode: "ABCDEFGH23" } });
    expect(await getTicket(3, 7)).toMatchObject({
      key: "3:7",
      eventID: 3,
      userID: 7,
      eventName: "Garden Party",
      eventDateTime: "2031-05-03T08:00:00.000Z",
      eventLocation: "1 George St",
      timeZone: "Australia/Sydney",
      durationHours: 3,
      name: "Priya Sharma",
      phone: "+61412345678",
      uniqueCode: "ABCDEFGH23",
      qrCodeImage: "data:image/png;base64,AAAA",
      // The link's capability, so the saved ticket can ask ticket-status later.
      bookingId: 42,
      ticketToken: "tok",
      status: "paid",
    });
  });

  it("says a bad link is not valid, without a retry, and saves nothing", async () => {
    ticketApi({ status: 403, body: { success: false, error: "this ticket link is not valid", code: "invalid_link" } });
    expect(await openTicketLink({ bookingId: 42, token: "bad" })).toEqual({
      status: "error",
      message: "This ticket link isn't valid. Please open the link from your text message again.",
      canRetry: false,
    });
    expect(await listTickets()).toEqual([]);
  });

  it("says a refunded booking's ticket is no longer valid", async () => {
    ticketApi({
      status: 409,
      body: { success: false, error: "this booking was refunded, so the ticket is no longer valid", code: "refunded" },
    });
    expect(await openTicketLink({ bookingId: 42, token: "tok" })).toMatchObject({
      status: "error",
      message: "This booking was refunded, so its ticket is no longer valid.",
      canRetry: false,
    });
  });

  it("offers a retry when the call cannot be made", async () => {
    ticketApi("offline");
    expect(await openTicketLink({ bookingId: 42, token: "tok" })).toMatchObject({ status: "error", canRetry: true });
  });
});
