import { describe, expect, it } from "vitest";
import { eventOfReply } from "../../../common/event-wire.ts";
import { pinClock } from "../../../test/clock.ts";
import type { api, Ok } from "../../lib/api.ts";
import { draftOf, draftProblem, emptyDraft, newEventOf, updateOf } from "./event-draft.ts";
import { creditUntilShown, emptyMoneyRules, minimumByShown } from "./money-rules-draft.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

// As admin-event answers it, mapped as admin-api.ts maps it.
const saturday = eventOfReply({
  id: 7,
  event_name: "Harbour Mixer",
  event_image: "x.jpg",
  EventDateTime: "2031-11-29T08:00:00.000Z",
  event_address: "1 George St",
  venue_notes: null,
  booking_amount: 45,
  SeatAvailabilityPer: 100,
  event_status: "upcoming",
  event_duration: 3,
  from_age: 25,
  to_age: 35,
  time_zone: "Australia/Sydney",
  startsAtText: { weekday: "Sat", local: "2031-11-29 07:00 PM AEDT", utc: "2031-11-29 08:00 AM UTC" },
  SeatsLeft: null,
  seatsLeftTotal: 10,
  resultsAt: "2031-11-30T01:00:00.000Z",
  doorsOpenAt: "2031-11-29T05:00:00.000Z",
  creditUntil: "2031-11-29T08:00:00.000Z",
  event_date: "2031-11-29",
  event_time: "08:00",
  total_seats: 10,
  seatsMale: null,
  seatsFemale: null,
  bookingAmountMale: null,
  bookingAmountFemale: null,
  earlyBirdDiscount: null,
  earlyBirdUntil: null,
  earlyBirdUntilText: null,
  fromAgeMale: null,
  toAgeMale: null,
  fromAgeFemale: null,
  toAgeFemale: null,
  currentAmount: { male: 45, female: 45 },
  cancellationPolicy: { fullRefundHours: 48, laterPercent: 0 },
  offersFriend: false,
  format: "women_men",
  noMatchPromise: false,
  minimumFemale: null,
  minimumMale: null,
  minimumTotal: null,
  minimumBy: null,
} satisfies Ok<(typeof api)["admin-event"][":id"]["$get"]>);

describe("the results time in the Edit form", () => {
  it("shows the results time on the venue's clock", () => {
    expect(draftOf(saturday).results).toMatchObject({ date: "2031-11-30", hour: 12, minute: 0 });
  });

  it("sends nothing when it is left alone, so the default keeps following the start", () => {
    const draft = { ...draftOf(saturday), date: "2031-12-06" };
    expect(updateOf(7, draft)).not.toHaveProperty("resultsAt");
  });

  it("sends the venue's time as an instant when the organiser changes it", () => {
    const draft = draftOf(saturday);
    const changed = { ...draft, results: { ...draft.results!, hour: 9 } };
    expect(updateOf(7, changed).resultsAt).toBe("2031-11-29T22:00:00.000Z");
  });
});

describe("the cancellation policy in the Add and Edit forms", () => {
  it("starts a new event on the defaults, 48 hours then nothing", () => {
    expect(emptyDraft("Australia/Sydney")).toMatchObject({ cancelHours: "48", cancelPercent: "0" });
  });

  it("shows the event's policy and sends it back as numbers", () => {
    const draft = { ...draftOf({ ...saturday, cancellationPolicy: { fullRefundHours: 24, laterPercent: 50 } }) };
    expect(draft).toMatchObject({ cancelHours: "24", cancelPercent: "50" });
    expect(updateOf(7, { ...draft, cancelPercent: "25" })).toMatchObject({
      cancelFullRefundHours: 24,
      cancelLaterPercent: 25,
    });
  });
});

describe("the format in the Add and Edit forms", () => {
  it("starts a new event as Women meet men and sends the format chosen", () => {
    expect(emptyDraft("Australia/Sydney").format).toBe("women_men");
    // The new event's fields as the organiser typed them, from a stored one's.
    const draft = draftOf(saturday);
    const image = new File([new Uint8Array([1])], "e.png", { type: "image/png" });
    const chosen = { ...draft, format: "one_group" as const, seatPlan: { balanced: true, men: "5", women: "5" } };
    const sent = newEventOf(chosen, image);
    expect(sent.format).toBe("one_group");
    // One pool of seats: a split left in the draft from Women meet men is not sent.
    expect(sent.seatsMale).toBeUndefined();
    expect(sent.seatsFemale).toBeUndefined();
    expect(draftProblem({ ...chosen, seats: "10", seatPlan: { balanced: true, men: "", women: "" } })).toBeNull();
  });

  it("shows the event's format, and an edit to One group or Mixed clears the seats by gender", () => {
    const draft = { ...draftOf({ ...saturday, format: "mixed" }), seatPlan: { balanced: true, men: "5", women: "5" } };
    expect(draft.format).toBe("mixed");
    expect(updateOf(saturday.id, draft)).toMatchObject({ format: "mixed", seatsMale: null, seatsFemale: null });
    expect(updateOf(saturday.id, { ...draft, format: "women_men" })).toMatchObject({ seatsMale: 5, seatsFemale: 5 });
  });
});

describe("the money rules in the Add and Edit forms (issue 52)", () => {
  const image = new File([new Uint8Array([1])], "e.png", { type: "image/png" });

  it("starts a new event with Credit until at the start, Go ahead only with at least off and no promise", () => {
    const draft = { ...emptyDraft("Australia/Sydney"), date: "2031-11-29", hour: 19, minute: 0 };
    expect(creditUntilShown(draft.money, draft)).toEqual({ date: "2031-11-29", hour: 19, minute: 0 });
    expect(minimumByShown(draft.money, draft)).toEqual({ date: "2031-11-27", hour: 19, minute: 0 });
    expect(newEventOf(draft, image)).toMatchObject({
      creditUntil: "",
      minimumFemale: "",
      minimumMale: "",
      minimumTotal: "",
      minimumBy: "",
      noMatchPromise: "0",
    });
  });

  it("sends what the organiser set on Add as text: the times as instants, the counts of the format", () => {
    const draft = { ...emptyDraft("Australia/Sydney"), date: "2031-11-29", hour: 19, minute: 0 };
    const set = {
      ...draft,
      money: {
        creditUntil: { date: "2031-11-28", hour: 12, minute: 0 },
        minimum: { on: true, women: "6", men: "7", total: "20", by: { date: "2031-11-26", hour: 9, minute: 30 } },
        noMatchPromise: true,
      },
    };
    expect(newEventOf(set, image)).toMatchObject({
      creditUntil: "2031-11-28T01:00:00.000Z",
      minimumFemale: "6",
      minimumMale: "7",
      minimumTotal: "",
      minimumBy: "2031-11-25T22:30:00.000Z",
      noMatchPromise: "1",
    });
    // One pool: people, not women and men.
    expect(newEventOf({ ...set, format: "one_group" }, image)).toMatchObject({
      minimumFemale: "",
      minimumMale: "",
      minimumTotal: "20",
    });
    // Turned off, nothing is sent, whatever was typed.
    const off = { ...set, money: { ...set.money, minimum: { ...set.money.minimum, on: false } } };
    expect(newEventOf(off, image)).toMatchObject({ minimumFemale: "", minimumMale: "", minimumBy: "" });
  });

  it("shows a stored event's rules on Edit, keeping the defaults as defaults", () => {
    expect(draftOf(saturday).money).toEqual(emptyMoneyRules());
    const stored = draftOf({
      ...saturday,
      creditUntil: "2031-11-28T01:00:00.000Z",
      minimumFemale: 6,
      minimumMale: 7,
      minimumBy: "2031-11-27T08:00:00.000Z",
      noMatchPromise: true,
    });
    expect(stored.money).toEqual({
      creditUntil: { date: "2031-11-28", hour: 12, minute: 0 },
      // 48 hours before the start is the default: it keeps following the start.
      minimum: { on: true, women: "6", men: "7", total: "", by: null },
      noMatchPromise: true,
    });
    expect(updateOf(7, stored)).toMatchObject({
      creditUntil: "2031-11-28T01:00:00.000Z",
      minimumFemale: 6,
      minimumMale: 7,
      minimumTotal: null,
      minimumBy: null,
      noMatchPromise: true,
    });
  });

  it("sends null on Edit for a count turned off and a time back on its default", () => {
    const draft = draftOf({ ...saturday, minimumTotal: 12, format: "mixed", creditUntil: "2031-11-28T01:00:00.000Z" });
    const off = {
      ...draft,
      money: { ...draft.money, creditUntil: null, minimum: { ...draft.money.minimum, on: false } },
    };
    expect(updateOf(7, off)).toMatchObject({
      creditUntil: null,
      minimumFemale: null,
      minimumMale: null,
      minimumTotal: null,
      minimumBy: null,
      noMatchPromise: false,
    });
  });

  it("says what is wrong before sending: a count missing, or a time after the start", () => {
    const draft = draftOf(saturday);
    const on = { ...draft, money: { ...draft.money, minimum: { ...draft.money.minimum, on: true, women: "6" } } };
    expect(draftProblem(on)).toBe("Go ahead only with at least: give the number of women and of men, or turn it off.");
    expect(draftProblem({ ...on, format: "one_group" })).toBe(
      "Go ahead only with at least: give the number of people, or turn it off.",
    );
    const late = { ...draft, money: { ...draft.money, creditUntil: { date: "2031-11-29", hour: 20, minute: 0 } } };
    expect(draftProblem(late)).toBe("Credit until must be no later than the start.");
    const lateBy = {
      ...on,
      money: {
        ...on.money,
        minimum: { ...on.money.minimum, men: "6", by: { date: "2031-11-30", hour: 9, minute: 0 } },
      },
    };
    expect(draftProblem(lateBy)).toBe("Go ahead only with at least: the numbers are decided no later than the start.");
    expect(
      draftProblem({ ...lateBy, money: { ...lateBy.money, minimum: { ...lateBy.money.minimum, by: null } } }),
    ).toBeNull();
  });
});
