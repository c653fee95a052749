import { EVENT_LIMITS } from "../../../common/event-limits.ts";
import { type EventTextDraft, emptyTextDraft, textDraftOf, textRequestOf } from "../../../common/event-wire.ts";
import { type EventFormat, splitsByGender } from "../../../common/formats.ts";
import { wallClockToUtc } from "../../../common/venue-time-input.ts";
import type { AdminEventDetail, EventUpdate, NewEvent } from "./admin-api.ts";
import { type BalancedSeats, balancedSeatsOf, seatsForUpdate, validateBalancedSeats } from "./balanced-seats.ts";
import { apiToWallClock, wallClockToApi } from "./format.ts";
import {
  emptyMoneyRules,
  type MoneyRulesDraft,
  moneyRulesForNew,
  moneyRulesForUpdate,
  moneyRulesOf,
  moneyRulesProblem,
} from "./money-rules-draft.ts";
import {
  emptyPrices,
  type PricesDraft,
  pricesForNew,
  pricesForUpdate,
  pricesOf,
  pricesProblem,
} from "./prices-draft.ts";

/**
 * An event as the Add and Edit forms hold it: numbers as typed, the start on the venue's wall clock
 * in `zone`. One shape for both forms, so they show the same fields in the same order and send the
 * same checks (common/event-limits.ts). Its fields have the table's names; the text fields (the
 * name, the address) are common/event-wire.ts's, which maps them to the API's names both ways.
 */
export type EventDraft = EventTextDraft & {
  zone: string;
  date: string;
  hour: number;
  minute: number;
  seats: string;
  seatPlan: BalancedSeats;
  price: string;
  duration: string;
  fromAge: string;
  toAge: string;
  /**
   * When the results are released, on the venue's clock (the Edit form only; a new event takes the
   * default). `loaded` is the time as last saved: it is sent only when changed, so an event that
   * keeps the default keeps following its start (docs/decisions/021-results.md).
   */
  results?: { date: string; hour: number; minute: number; loaded: string };
  /**
   * When the door may check people in, on the venue's clock (the Edit form only), sent only when
   * changed, like `results`: an event on the default keeps following its start (docs/decisions/008-door.md).
   */
  doors?: { date: string; hour: number; minute: number; loaded: string };
  prices: PricesDraft;
  /** The cancellation policy (docs/decisions/028-cancellation-money-path.md): hours, then a percentage. */
  cancelHours: string;
  cancelPercent: string;
  /** Friend as a third choice beside Date and No (issue 37). */
  offersFriend: boolean;
  /** Who meets whom (issue 37); only Women meet men splits the seats by gender. */
  format: EventFormat;
  /** Credit until, Go ahead only with at least and the no-match promise (issue 52; money-rules-draft.ts). */
  money: MoneyRulesDraft;
};

export const emptyDraft = (zone: string): EventDraft => ({
  ...emptyTextDraft(),
  zone,
  date: "",
  hour: 19,
  minute: 0,
  seats: "",
  seatPlan: { balanced: false, men: "", women: "" },
  price: "",
  duration: "",
  fromAge: "",
  toAge: "",
  prices: emptyPrices(),
  cancelHours: String(EVENT_LIMITS.cancelFullRefundHours.default),
  cancelPercent: String(EVENT_LIMITS.cancelLaterPercent.default),
  offersFriend: false,
  format: "women_men",
  money: emptyMoneyRules(),
});

export const draftOf = (e: AdminEventDetail): EventDraft => ({
  ...textDraftOf(e),
  zone: e.timeZone,
  ...apiToWallClock(e.startsAt, e.timeZone),
  seats: String(e.totalSeats),
  seatPlan: balancedSeatsOf(e),
  price: (e.priceCents / 100).toFixed(2),
  duration: String(e.durationHours),
  fromAge: String(e.fromAge),
  toAge: String(e.toAge),
  results: { ...apiToWallClock(e.resultsAt, e.timeZone), loaded: e.resultsAt },
  doors: { ...apiToWallClock(e.doorsOpenAt, e.timeZone), loaded: e.doorsOpenAt },
  prices: pricesOf(e),
  cancelHours: String(e.cancellationPolicy.fullRefundHours),
  cancelPercent: String(e.cancellationPolicy.laterPercent),
  offersFriend: e.offersFriend,
  format: e.format ?? "women_men",
  money: moneyRulesOf(e),
});

/** A venue-clock time the draft sends: an ISO instant, or undefined when the organiser left it alone. */
function changedInstant(t: EventDraft["results"], zone: string): string | undefined {
  if (!t) return undefined;
  const loaded = apiToWallClock(t.loaded, zone);
  if (loaded.date === t.date && loaded.hour === t.hour && loaded.minute === t.minute) return undefined;
  return new Date(wallClockToUtc({ date: t.date, hour: t.hour, minute: t.minute }, zone)).toISOString();
}

/** The results and doors-open times the draft sends, each only when changed. */
function timesOf(draft: EventDraft): { resultsAt?: string; doorsOpenAt?: string } {
  const resultsAt = changedInstant(draft.results, draft.zone);
  const doorsOpenAt = changedInstant(draft.doors, draft.zone);
  return { ...(resultsAt ? { resultsAt } : {}), ...(doorsOpenAt ? { doorsOpenAt } : {}) };
}

/** What the browser's own input checks cannot see; null when the draft may be sent. */
export const draftProblem = (draft: EventDraft): string | null =>
  (splitsByGender(draft.format) ? validateBalancedSeats(draft.seatPlan, draft.seats) : null) ??
  pricesProblem(draft.prices) ??
  moneyRulesProblem(draft.money, draft);

/** The venue's wall clock as the API's UTC date and H:M time, with the zone's daylight saving applied. */
const startOf = (draft: EventDraft) =>
  wallClockToApi({ date: draft.date, hour: draft.hour, minute: draft.minute }, draft.zone);

/** save-event's multipart fields. An unbalanced event sends no seat counts at all. */
export function newEventOf(draft: EventDraft, image: File): NewEvent {
  const { eventDate, eventTime } = startOf(draft);
  return {
    ...textRequestOf(draft),
    eventDate,
    eventTime,
    timeZone: draft.zone,
    totalSeats: draft.seats,
    ...(draft.seatPlan.balanced && splitsByGender(draft.format)
      ? { seatsMale: draft.seatPlan.men, seatsFemale: draft.seatPlan.women }
      : {}),
    bookingAmount: draft.price,
    eventduration: draft.duration,
    fromage: draft.fromAge,
    toage: draft.toAge,
    ...pricesForNew(draft.prices),
    cancelFullRefundHours: draft.cancelHours,
    cancelLaterPercent: draft.cancelPercent,
    offersFriend: draft.offersFriend ? "1" : "0",
    format: draft.format,
    ...moneyRulesForNew(draft.money, draft),
    eventImage: image,
  };
}

/** update-event's body: every field, and the seat plan as both counts or both null. */
export const updateOf = (eventId: number, draft: EventDraft): EventUpdate => ({
  eventid: eventId,
  ...textRequestOf(draft),
  ...startOf(draft),
  timeZone: draft.zone,
  totalSeats: Number(draft.seats),
  // One group and Mixed are one pool of seats.
  ...seatsForUpdate(splitsByGender(draft.format) ? draft.seatPlan : { ...draft.seatPlan, balanced: false }),
  bookingAmount: Number(draft.price),
  eventduration: Number(draft.duration),
  fromage: Number(draft.fromAge),
  toage: Number(draft.toAge),
  ...timesOf(draft),
  ...pricesForUpdate(draft.prices),
  cancelFullRefundHours: Number(draft.cancelHours),
  cancelLaterPercent: Number(draft.cancelPercent),
  offersFriend: draft.offersFriend,
  format: draft.format,
  ...moneyRulesForUpdate(draft.money, draft),
});
