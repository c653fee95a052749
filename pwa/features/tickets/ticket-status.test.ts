// @vitest-environment happy-dom
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pinClock } from "../../../test/clock.ts";
import { resetOfflineDbForTests } from "../../lib/offline-db.ts";
import { refreshTicketStatuses } from "./refresh-ticket-status.ts";
import { groupTickets, ticketStanding } from "./ticket-standing.ts";
import { getTicket, listTickets, saveTicket, type TicketFields } from "./ticket-store.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const HOUR = 3_600_000;

/** POST /api/ticket-status at the network edge: an answer per booking id, every request recorded. */
function statusApi(answers: Record<number, { status: number; body: unknown } | "offline">) {
  const calls: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const body = JSON.parse(String(init.body)) as { bookingId: number; t: string };
      calls.push({ url, body });
      const answer = answers[body.bookingId];
      if (!answer || answer === "offline") throw new TypeError("Failed to fetch");
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { "content-type": "application/json" },
      });
    }),
  );
  return calls;
}

const ticket = (n: number, extra: Partial<TicketFields> = {}): TicketFields => ({
  eventID: n,
  userID: 9,
  eventName: `Night ${n}`,
  eventDateTime: "2031-05-03T08:00:00.000Z",
  eventLocation: "1 George St",
  timeZone: "Australia/Sydney",
  durationHours: 2,
  name: "Asha",
  uniqueCode: "ABCDEFGHJK",
  qrCodeImage: "data:image/png;base64,AAAA",
  bookingId: 100 + n,
  ticketToken: `token-${n}`,
  ...extra,
});

const news = (status: string, extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: {
    status,
    eventName: "Night",
    eventDate: "2031-05-03T08:00:00.000Z",
    eventLocation: "1 George St",
    time_zone: "Australia/Sydney",
    event_duration: 2,
    ...extra,
  },
});

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetOfflineDbForTests();
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("refreshing saved tickets", () => {
  it("asks for each ticket with its own token and keeps what the server says", async () => {
    await saveTicket(ticket(1));
    await saveTicket(ticket(2));
    const calls = statusApi({ 101: news("refunded"), 102: news("paid", { eventLocation: "2 New Venue St" }) });
    const fresh = await refreshTicketStatuses(await listTickets());
    expect(calls).toEqual([
      { url: "/api/ticket-status", body: { bookingId: 101, t: "token-1" } },
      { url: "/api/ticket-status", body: { bookingId: 102, t: "token-2" } },
    ]);
    expect(fresh.map((t) => t.status)).toEqual(["refunded", "paid"]);
    // Kept on the phone, so the next offline opening shows it too.
    expect(await getTicket(1, 9)).toMatchObject({ status: "refunded", uniqueCode: "ABCDEFGHJK" });
    expect(await getTicket(2, 9)).toMatchObject({ status: "paid", eventLocation: "2 New Venue St" });
  });

  it("keeps what it knew when offline or refused, and never asks for a ticket saved without a token", async () => {
    await saveTicket(ticket(1));
    await saveTicket(ticket(2, { bookingId: undefined, ticketToken: undefined }));
    await saveTicket(ticket(3));
    const calls = statusApi({
      101: "offline",
      103: { status: 403, body: { success: false, error: "this ticket link is not valid", code: "invalid_link" } },
    });
    const before = await listTickets();
    expect(await refreshTicketStatuses(before)).toEqual(before);
    expect(calls.map((c) => (c as { body: { bookingId: number } }).body.bookingId)).toEqual([101, 103]);
  });

  it("names each ticket whose call could not be made, so the list can ask again, and not one refused", async () => {
    await saveTicket(ticket(1));
    await saveTicket(ticket(2));
    await saveTicket(ticket(3));
    statusApi({
      101: "offline",
      102: news("refunded"),
      103: { status: 403, body: { success: false, error: "this ticket link is not valid", code: "invalid_link" } },
    });
    const unreached: number[] = [];
    await refreshTicketStatuses(await listTickets(), (t) => unreached.push(t.eventID));
    expect(unreached).toEqual([1]);
  });

  it("does not ask again about a ticket already refunded or cancelled", async () => {
    await saveTicket(ticket(1));
    statusApi({ 101: news("cancelled") });
    const [cancelled] = await refreshTicketStatuses(await listTickets());
    expect(cancelled?.status).toBe("cancelled");
    const calls = statusApi({});
    await refreshTicketStatuses(await listTickets());
    expect(calls).toEqual([]);
  });
});

describe("how a ticket stands", () => {
  const start = Date.parse("2031-05-03T08:00:00.000Z");
  const t = (status: "paid" | "refunded" | "cancelled" | "ended", eventDateTime = "2031-05-03T08:00:00.000Z") => ({
    status,
    eventDateTime,
    durationHours: 2,
  });

  it("is void when refunded or cancelled, and past when ended or 3 hours after its planned end", () => {
    expect(ticketStanding(t("paid"), start - HOUR)).toEqual({ voided: null, past: false });
    expect(ticketStanding(t("refunded"), start - HOUR)).toEqual({ voided: "refunded", past: false });
    expect(ticketStanding(t("cancelled"), start - HOUR)).toEqual({ voided: "cancelled", past: false });
    expect(ticketStanding(t("ended"), start + HOUR)).toEqual({ voided: null, past: true });
    // Offline, the clock decides, leaving room for a night that overruns.
    expect(ticketStanding(t("paid"), start + 5 * HOUR - 1).past).toBe(false);
    expect(ticketStanding(t("paid"), start + 5 * HOUR).past).toBe(true);
  });

  it("lists upcoming tickets soonest first and past ones latest first", () => {
    const now = start;
    const tickets = [
      { ...t("paid", "2031-06-01T08:00:00.000Z"), key: "later" },
      { ...t("ended", "2031-04-01T08:00:00.000Z"), key: "april" },
      { ...t("refunded", "2031-05-10T08:00:00.000Z"), key: "soon" },
      { ...t("paid", "2031-04-20T08:00:00.000Z"), key: "after-april" },
    ];
    const { upcoming, past } = groupTickets(tickets, now);
    expect(upcoming.map((x) => x.key)).toEqual(["soon", "later"]);
    expect(past.map((x) => x.key)).toEqual(["after-april", "april"]);
  });
});
