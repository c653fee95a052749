import { afterEach, describe, expect, it, vi } from "vitest";
import { pinClock } from "../../../test/clock.ts";
import { claimOffer } from "./claim-offer.ts";
import { joinWaitlist } from "./join-waitlist.ts";
import { leaveWaitlist } from "./leave-waitlist.ts";
import { saveUserDetails } from "./save-user-details.ts";
import { verifyOtp } from "./verify-otp.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

// The server's replies, faked at the network edge, and what each one means to the attendee.
const answer = (status: number, body: unknown) =>
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })),
  );
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("verifyOtp", () => {
  it("calls a refused code incorrect, but a server or SMS-provider fault a failed call", async () => {
    answer(200, { success: true });
    expect(await verifyOtp("+61412345678", "123456")).toBe("verified");
    answer(400, { success: false, error: "wrong code", code: "wrong_code" });
    expect(await verifyOtp("+61412345678", "123456")).toBe("incorrect");
    // Past the wrong-code limit even the right code is refused: not "incorrect".
    answer(429, {
      success: false,
      error: "too many wrong codes for this phone, try again in an hour",
      code: "rate_limited",
    });
    expect(await verifyOtp("+61412345678", "123456")).toBe("limited");
    answer(502, { success: false, error: "provider down", code: "provider_failed" });
    expect(await verifyOtp("+61412345678", "123456")).toBe("failed");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    expect(await verifyOtp("+61412345678", "123456")).toBe("failed");
  });
});

describe("saveUserDetails", () => {
  const details = {
    name: "Asha",
    email: "asha@example.com",
    phone: "+61412345678",
    gender: "female" as const,
    dateOfBirth: "1995-05-03",
    eventID: 1,
    eventName: "Mixer",
    image: new File([new Uint8Array([1, 2, 3])], "me.jpg", { type: "image/jpeg" }),
  };

  it("tells sold out, a lapsed verification and a server fault apart", async () => {
    answer(200, { success: true, userID: 7, holdExpiresAt: "2031-05-03T09:30:00.000Z" });
    expect(await saveUserDetails(details)).toEqual({
      kind: "saved",
      userID: 7,
      holdExpiresAt: "2031-05-03T09:30:00.000Z",
    });
    answer(409, { success: false, error: "no seats left", code: "sold_out" });
    expect(await saveUserDetails(details)).toEqual({ kind: "sold-out" });
    answer(409, { success: false, error: "no seats left for men", code: "gender_sold_out", gender: "male" });
    expect(await saveUserDetails(details)).toEqual({ kind: "gender-full", gender: "male" });
    answer(409, { success: false, error: "no seats left for women", code: "gender_sold_out", gender: "female" });
    expect(await saveUserDetails(details)).toEqual({ kind: "gender-full", gender: "female" });
    answer(403, { success: false, error: "verify this phone number first", code: "phone_not_verified" });
    expect(await saveUserDetails(details)).toEqual({ kind: "unverified" });
    answer(500, { success: false, error: "internal error", code: "internal_error" });
    expect(await saveUserDetails(details)).toEqual({ kind: "failed" });
    answer(415, { success: false, error: "not an image (JPEG, PNG or WebP)", code: "not_an_image" });
    expect(await saveUserDetails(details)).toEqual({ kind: "refused", error: "not an image (JPEG, PNG or WebP)" });
  });
});

describe("joinWaitlist", () => {
  const input = { eventID: 3, phone: "+61412345678", gender: "male" as const, name: "Arjun" };

  it("gives the place in line, and tells each refusal apart", async () => {
    answer(200, { success: true, position: 2 });
    expect(await joinWaitlist(input)).toEqual({ kind: "joined", position: 2 });
    answer(409, { success: false, error: "a seat is free: book it instead", code: "seat_free" });
    expect(await joinWaitlist(input)).toEqual({ kind: "seat-free" });
    answer(409, { success: false, error: "this phone is already on the waitlist", code: "already_waiting" });
    expect(await joinWaitlist(input)).toEqual({ kind: "already-waiting" });
    answer(409, {
      success: false,
      error: "this phone already has a paid seat for this event",
      code: "already_booked",
      alreadyBooked: true,
    });
    expect(await joinWaitlist(input)).toEqual({ kind: "already-booked" });
    answer(409, { success: false, error: "booking has closed", code: "booking_closed" });
    expect(await joinWaitlist(input)).toEqual({ kind: "closed" });
    answer(403, { success: false, error: "verify this phone number first", code: "phone_not_verified" });
    expect(await joinWaitlist(input)).toEqual({ kind: "unverified" });
    answer(409, { success: false, error: "this event is no longer taking bookings", code: "not_taking_bookings" });
    expect(await joinWaitlist(input)).toEqual({ kind: "refused", error: "this event is no longer taking bookings" });
    answer(503, { success: false, error: "busy", code: "internal_error" });
    expect(await joinWaitlist(input)).toEqual({ kind: "failed" });
  });
});

describe("leaveWaitlist", () => {
  it("counts a phone no longer in line as having left", async () => {
    answer(200, { success: true });
    expect(await leaveWaitlist({ eventID: 3, phone: "+61412345678" })).toBe("left");
    answer(404, { success: false, error: "this phone is not on the waitlist", code: "not_found" });
    expect(await leaveWaitlist({ eventID: 3, phone: "+61412345678" })).toBe("left");
    answer(403, { success: false, error: "verify this phone number first", code: "phone_not_verified" });
    expect(await leaveWaitlist({ eventID: 3, phone: "+61412345678" })).toBe("unverified");
  });
});

describe("claimOffer", () => {
  it("hands back the offer, and says expired for 410 and not valid for a forged link", async () => {
    const claim = {
      eventID: 4,
      phone: "+61412345678",
      gender: "female",
      name: "Anika Das",
      expiresAt: "2031-05-03T09:00:00.000Z",
    };
    answer(200, { success: true, ...claim });
    expect(await claimOffer("11", "good")).toEqual({ kind: "claimed", claim });
    answer(410, { success: false, error: "this offer has expired or was already used", code: "gone" });
    expect(await claimOffer("12", "good")).toEqual({ kind: "gone" });
    answer(403, { success: false, error: "this offer link is not valid", code: "invalid_link" });
    expect(await claimOffer("13", "forged")).toEqual({ kind: "invalid" });
  });

  it("claims once per link however often the page asks, since a claim uses the offer up", async () => {
    const fetch = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ success: true, eventID: 4, phone: "+61412345678", gender: "male", expiresAt: "x" }),
          { status: 200, headers: { "content-type": "application/json" } },
        ),
    );
    vi.stubGlobal("fetch", fetch);
    const [first, second] = await Promise.all([claimOffer("21", "tok"), claimOffer("21", "tok")]);
    expect(second).toEqual(first);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("never calls the server for a link without an offer number or token", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    expect(await claimOffer("abc", "tok")).toEqual({ kind: "invalid" });
    expect(await claimOffer("5", "")).toEqual({ kind: "invalid" });
    expect(fetch).not.toHaveBeenCalled();
  });
});
