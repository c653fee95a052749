// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pinClock } from "../../../test/clock.ts";
import type { EventView } from "../events/index.ts";
import { BOOKING_STORE_KEY, EMPTY_FLOW, useBookingStore } from "./booking-store.ts";
import type { ConfirmationState } from "./types.ts";

// Every test here runs on a pinned clock (test/clock.ts), so the hold's end below never meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const event = (id: number, balanced = false) =>
  ({ id, name: `Night ${id}`, SeatsLeft: balanced ? { male: 3, female: 3 } : null }) as unknown as EventView;
const store = () => useBookingStore.getState();
const kept = () => JSON.parse(sessionStorage.getItem(BOOKING_STORE_KEY) ?? "null")?.state;
const photo = () => new File([new Uint8Array(10)], "me.png", { type: "image/png" });

beforeEach(() => {
  useBookingStore.setState(EMPTY_FLOW);
  sessionStorage.clear();
});
afterEach(() => vi.restoreAllMocks());

describe("the booking store", () => {
  it("begins at the side at a balanced event, the phone otherwise, and the details for a proven phone", () => {
    store().begin(event(1, true));
    expect(store().step).toEqual({ name: "side" });
    store().begin(event(2));
    expect(store().step).toEqual({ name: "phone" });
    store().begin(event(2), { intent: "waitlist" });
    expect(store().intent).toBe("waitlist");
    store().begin(event(1, true), { verifiedPhone: "+61412345678", offer: { name: "Rohan", expiresAt: "x" } });
    expect(store().step).toEqual({ name: "details", phone: "+61412345678" });
    // A waitlist offer's name fills in where nothing was typed.
    expect(store().details.name).toBe("Rohan");
  });

  it("keeps what was typed for the same event, with the boxes unticked again, and starts empty for another", () => {
    store().begin(event(1));
    store().setDetails({
      name: "Priya",
      email: "priya@example.com",
      dateOfBirth: "1996-05-03",
      consent: true,
      keep: true,
    });
    store().begin(event(1));
    expect(store().details).toMatchObject({ name: "Priya", dateOfBirth: "1996-05-03", consent: false, keep: false });
    store().begin(event(2));
    expect(store().details).toMatchObject({ name: "", email: "", dateOfBirth: "", consent: false });
  });

  it("keeps the details, the step and the hold for this tab, but never the photo or a Mixed night's answers", () => {
    store().begin(event(1));
    store().setDetails({
      name: "Sam",
      gender: "female",
      mixedGender: "nonbinary",
      wantsToMeet: "everyone",
      consent: true,
    });
    store().setPhoto(photo());
    store().setStep({ name: "details", phone: "+61412345678" });
    const hold = {
      user: { userID: 7, name: "Sam", email: "sam@example.com", phone: "+61412345678", gender: "female" },
      event: event(1),
      holdExpiresAt: "2031-05-03T11:45:00.000Z",
    } as ConfirmationState;
    store().held(hold);
    expect(kept()).toMatchObject({
      eventID: 1,
      step: { name: "details" },
      hold,
      details: { name: "Sam", consent: true },
    });
    const stored = sessionStorage.getItem(BOOKING_STORE_KEY) ?? "";
    expect(stored).not.toContain("everyone");
    expect(stored).not.toContain("nonbinary");
    expect(stored).not.toContain("blob:");
    expect(Object.keys(kept().details)).not.toContain("photo");
  });

  it("resumes from this tab's storage at the next load, the photo and Mixed answers as they were in memory", async () => {
    store().begin(event(4));
    store().setDetails({ name: "Dev", dateOfBirth: "1995-01-02", consent: true });
    const saved = sessionStorage.getItem(BOOKING_STORE_KEY);
    useBookingStore.setState(EMPTY_FLOW);
    sessionStorage.setItem(BOOKING_STORE_KEY, saved ?? "");
    await useBookingStore.persist.rehydrate();
    expect(store().eventID).toBe(4);
    expect(store().details).toMatchObject({ name: "Dev", dateOfBirth: "1995-01-02", consent: true, photo: null });
  });

  it("makes the photo's preview once, and lets it go when another photo is chosen or another event begins", () => {
    let urls = 0;
    const made = vi.spyOn(URL, "createObjectURL").mockImplementation(() => `blob:${++urls}`);
    const revoked = vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
    store().begin(event(1));
    const first = photo();
    store().setPhoto(first);
    store().setPhoto(first);
    expect(made).toHaveBeenCalledTimes(1);
    expect(store().details.photoPreview).toBe("blob:1");
    // Back to the same event keeps the photo and its preview.
    store().begin(event(1));
    expect(store().details).toMatchObject({ photo: first, photoPreview: "blob:1" });
    store().setPhoto(photo());
    expect(revoked).toHaveBeenCalledWith("blob:1");
    store().begin(event(2));
    expect(revoked).toHaveBeenCalledWith("blob:2");
    expect(store().details).toMatchObject({ photo: null, photoPreview: null });
  });
});
