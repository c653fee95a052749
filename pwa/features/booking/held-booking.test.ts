// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from "vitest";
import { pinClock } from "../../../test/clock.ts";
import { BOOKING_STORE_KEY, EMPTY_FLOW, useBookingStore } from "./booking-store.ts";
import {
  holdEndLabel,
  readAppliedPromo,
  readCancelledReturn,
  readHeldBooking,
  rememberAppliedPromo,
  rememberHeldBooking,
  timeLeftLabel,
} from "./held-booking.ts";
import type { ConfirmationState } from "./types.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const state = {
  user: { userID: 7, name: "Priya", email: "priya@example.com", phone: "+61412345678", gender: "female" },
  event: { id: 3, name: "Garden Party", timeZone: "Australia/Perth" },
  holdExpiresAt: "2031-05-03T11:45:00.000Z",
} as unknown as ConfirmationState;

// The hold and the promo live in the booking store (kept in sessionStorage): each test starts with neither.
beforeEach(() => {
  useBookingStore.setState(EMPTY_FLOW);
  sessionStorage.clear();
});

describe("the hold's end", () => {
  // Issue 46, item 14: the end now carries the venue's zone, as every other time the app shows does
  // (it read `7:45 PM` alone before).
  it("reads on the venue's clock with its zone, daylight saving included", () => {
    // 09:45 UTC is 7:45 PM in Sydney in May (AEST, +10) and 8:45 PM in January (AEDT, +11).
    expect(holdEndLabel("2031-05-03T09:45:00.000Z", "Australia/Sydney")).toBe("7:45 PM AEST");
    expect(holdEndLabel("2031-01-03T09:45:00.000Z", "Australia/Sydney")).toBe("8:45 PM AEDT");
    expect(holdEndLabel("2031-05-03T04:05:00.000Z", "Australia/Perth")).toBe("12:05 PM AWST");
    expect(holdEndLabel("2031-05-03T16:30:00.000Z", "Australia/Perth")).toBe("12:30 AM AWST");
  });

  it("counts the minutes left up, never saying 0 while the seat is held", () => {
    const end = Date.parse("2031-05-03T09:45:00.000Z");
    expect(timeLeftLabel(end, end - 29 * 60_000 - 1)).toBe("30 minutes left");
    expect(timeLeftLabel(end, end - 60_000)).toBe("1 minute left");
    expect(timeLeftLabel(end, end - 1_000)).toBe("1 minute left");
  });
});

describe("the way back from the payment page", () => {
  it("finds the booking this tab held, and only that one", async () => {
    rememberHeldBooking(state);
    expect(readHeldBooking(7, 3)).toEqual(state);
    expect(readHeldBooking(8, 3)).toBeNull();
    expect(readHeldBooking(7, 4)).toBeNull();
    // Unreadable storage at the tab's next load: as if nothing was kept.
    useBookingStore.setState(EMPTY_FLOW);
    sessionStorage.setItem(BOOKING_STORE_KEY, "{not json");
    await useBookingStore.persist.rehydrate();
    expect(readHeldBooking(7, 3)).toBeNull();
  });

  it("reads Cancel's address: the ids, and the hold's end when the seat is still held", () => {
    const back = (q: string) => readCancelledReturn(new URLSearchParams(q));
    expect(back("payment=cancelled&userID=7&eventID=3&heldUntil=2031-05-03T09%3A45%3A00.000Z")).toEqual({
      userID: 7,
      eventID: 3,
      heldUntil: "2031-05-03T09:45:00.000Z",
    });
    expect(back("payment=cancelled&userID=7&eventID=3")).toEqual({ userID: 7, eventID: 3, heldUntil: null });
    expect(back("payment=cancelled&userID=7&eventID=3&heldUntil=soon")?.heldUntil).toBeNull();
    expect(back("userID=7&eventID=3")).toBeNull();
    expect(back("payment=cancelled&userID=x&eventID=3")).toBeNull();
  });
});

describe("the promo code applied to this tab's hold", () => {
  it("is kept for that hold only, so a reload still shows the new total", () => {
    expect(readAppliedPromo(7, 3)).toBeNull();
    rememberAppliedPromo(7, 3, { code: "FRIENDS", amount: 28, discount: 7 });
    expect(readAppliedPromo(7, 3)).toEqual({ code: "FRIENDS", amount: 28, discount: 7 });
    // A new hold (a new userID) or another event starts without a code.
    expect(readAppliedPromo(8, 3)).toBeNull();
    expect(readAppliedPromo(7, 4)).toBeNull();
  });
});
