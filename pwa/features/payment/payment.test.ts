// @vitest-environment happy-dom
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pinClock } from "../../../test/clock.ts";
import { resetOfflineDbForTests } from "../../lib/offline-db.ts";
import { getTicket, saveTicket } from "../tickets/index.ts";
import { confirmPayment, readSuccessParams } from "./confirm-payment.ts";
import { startCheckout } from "./start-checkout.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const user = { userID: 7, name: "Priya", email: "priya@example.com", phone: "+61412345678" };
const event = { id: 3, name: "Garden Party", priceCents: 4500 };

/** The API at the network edge: answers by path, records what was sent. */
function api(routes: Record<string, { status: number; body: unknown } | "offline">) {
  const calls: { url: string; body: unknown }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    calls.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const answer = routes[url.split("?")[0] ?? ""];
    if (!answer || answer === "offline") throw new TypeError("Failed to fetch");
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fetch);
  return calls;
}

/** The ticket send-confirmation answers, as the server shapes it (api/booking/ticket.ts). */
const ticketReply = (fields: { name: string }) => ({
  success: true,
  qrCodeImage: "data:image/png;base64,AAAA",
  uniqueCode: "ABCDEFGH23",
  eventName: "Garden Party",
  eventDate: "2031-05-03T18:00:00.000Z",
  eventLocation: "1 George St",
  time_zone: "Australia/Sydney",
  event_duration: 2,
  phone: "+61412345678",
  userID: 7,
  eventID: 3,
  ...fields,
});

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetOfflineDbForTests();
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("startCheckout", () => {
  it("sends the buyer to the provider's checkout page", async () => {
    const calls = api({
      "/api/create-checkout-session": {
        status: 200,
        body: { sessionId: "cs_1", paymentIntentId: null, url: "https://pay.example/cs_1" },
      },
    });
    const assign = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, assign } as Location);
    await startCheckout(user, event);
    expect(calls[0]?.body).toEqual({
      userID: 7,
      eventID: 3,
      amount: 45,
      userEmail: "priya@example.com",
      eventName: "Garden Party",
    });
    expect(assign).toHaveBeenCalledWith("https://pay.example/cs_1");
  });

  it("only logs a reply without a session id, and throws a message fit to show", async () => {
    api({
      "/api/create-checkout-session": {
        status: 409,
        body: { success: false, error: "the seat hold has expired", code: "hold_expired" },
      },
    });
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const assign = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, assign } as Location);
    await expect(startCheckout(user, event)).rejects.toThrow("Your seat hold has expired");
    expect(log).toHaveBeenCalled();
    expect(assign).not.toHaveBeenCalled();
  });

  it("says the photo could not be read when it failed after the seat was held", async () => {
    api({
      "/api/create-checkout-session": {
        status: 415,
        body: { success: false, error: "your photo could not be read", code: "not_an_image" },
      },
    });
    vi.spyOn(console, "log").mockImplementation(() => {});
    const assign = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, assign } as Location);
    await expect(startCheckout(user, event)).rejects.toThrow(
      "Your photo could not be read, so the seat was given back. Please book again with another photo.",
    );
    expect(assign).not.toHaveBeenCalled();
  });
});

describe("the success page's confirmation", () => {
  const params = readSuccessParams(
    new URLSearchParams(
      "session_id=cs_local_1&userID=7&eventID=3&eventName=Garden%20Party&amount=45&userEmail=priya%40example.com&phone=%2B61412345678",
    ),
  )!;

  it("reads the success URL's query parameters and refuses a link without them", () => {
    expect(params).toEqual({
      sessionId: "cs_local_1",
      userID: 7,
      eventID: 3,
      eventName: "Garden Party",
      amount: "45",
      userEmail: "priya@example.com",
      phone: "+61412345678",
    });
    expect(readSuccessParams(new URLSearchParams("userID=7&eventID=3"))).toBeNull();
    expect(readSuccessParams(new URLSearchParams("session_id=x&userID=abc&eventID=3"))).toBeNull();
  });

  it("keeps the payment intent, confirms with it and saves the ticket on the device", async () => {
    const calls = api({
      "/api/checkout-session": { status: 200, body: { paymentIntentId: "pi_local_9", paid: true } },
      "/api/send-confirmation": {
        status: 200,
        body: ticketReply({ name: "Priya Sharma" }),
      },
    });
    const state = await confirmPayment(params);
    expect(state).toMatchObject({ status: "ready", saved: true, ticket: { uniqueCode: "ABCDEFGH23" } });
    expect(localStorage.getItem("paymentIntentId")).toBe("pi_local_9");
    expect(calls[0]?.url).toBe("/api/checkout-session?session_id=cs_local_1");
    expect(calls[1]?.body).toEqual({
      userID: 7,
      userEmail: "priya@example.com",
      eventID: 3,
      eventName: "Garden Party",
      userPhone: "+61412345678",
      paymentIntentId: "pi_local_9",
    });
    expect(await getTicket(3, 7)).toMatchObject({
      name: "Priya Sharma",
      uniqueCode: "ABCDEFGH23",
      qrCodeImage: "data:image/png;base64,AAAA",
      eventDateTime: "2031-05-03T18:00:00.000Z",
    });
  });

  it("offers a retry while the payment is not confirmed, without asking for a confirmation", async () => {
    const calls = api({ "/api/checkout-session": { status: 200, body: { paymentIntentId: null, paid: false } } });
    expect(await confirmPayment(params)).toMatchObject({ status: "error", canRetry: true });
    expect(calls.map((c) => c.url)).toEqual(["/api/checkout-session?session_id=cs_local_1"]);
    expect(localStorage.getItem("paymentIntentId")).toBeNull();
  });

  it("shows the saved ticket when the network is gone", async () => {
    api({
      "/api/checkout-session": { status: 200, body: { paymentIntentId: "pi_local_9", paid: true } },
      "/api/send-confirmation": {
        status: 200,
        body: ticketReply({ name: "Priya" }),
      },
    });
    await confirmPayment(params);
    api({ "/api/checkout-session": "offline" });
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await confirmPayment(params)).toMatchObject({ status: "ready", ticket: { uniqueCode: "ABCDEFGH23" } });
  });

  it("says the ticket was texted when the server keeps it from this browser (403), without asking further", async () => {
    const calls = api({
      "/api/checkout-session": {
        status: 403,
        body: { success: false, error: "verify this phone number first", code: "phone_not_verified" },
      },
    });
    expect(await confirmPayment(params)).toEqual({ status: "texted" });
    expect(calls.map((c) => c.url)).toEqual(["/api/checkout-session?session_id=cs_local_1"]);
    expect(localStorage.getItem("paymentIntentId")).toBeNull();
  });

  it("says the ticket was texted when send-confirmation refuses this browser (403)", async () => {
    api({
      "/api/checkout-session": { status: 200, body: { paymentIntentId: "pi_local_9", paid: true } },
      "/api/send-confirmation": {
        status: 403,
        body: { success: false, error: "verify this phone number first", code: "phone_not_verified" },
      },
    });
    expect(await confirmPayment(params)).toEqual({ status: "texted" });
    expect(await getTicket(3, 7)).toBeUndefined();
  });

  it("shows the ticket this device already saved (from the texted link) instead of the texted notice", async () => {
    await saveTicket({
      eventID: 3,
      userID: 7,
      eventName: "Garden Party",
      name: "Priya",
      uniqueCode: "ABCDEFGH23",
      qrCodeImage: "data:image/png;base64,AAAA",
    });
    api({
      "/api/checkout-session": {
        status: 403,
        body: { success: false, error: "verify this phone number first", code: "phone_not_verified" },
      },
    });
    expect(await confirmPayment(params)).toMatchObject({ status: "ready", ticket: { uniqueCode: "ABCDEFGH23" } });
  });
});
