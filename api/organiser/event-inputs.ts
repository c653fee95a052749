import type { PricesAndAgesFields } from "../../common/event-fields.ts";
import type { EventTextUpdate, NewEventText } from "../../common/event-wire.ts";
import type { EventFormat } from "../../common/formats.ts";
import type { MinimumInput } from "./minimum-numbers.ts";

// What save-event's and update-event's schemas (common/event-fields.ts) hand the services of
// admin-events.ts.

export type EventTime = { hour: number; minute: number };

/** A new event as save-event's schema hands it over; its text fields are common/event-wire.ts's. */
export type NewEventInput = NewEventText & {
  date: string;
  time: EventTime;
  totalSeats: number;
  priceCents: number;
  durationHours: number;
  fromAge: number;
  toAge: number;
  imageName: string;
  timeZone: string;
  /** Seats by gender (decision 015): both, adding up to `totalSeats`, or neither. */
  seatsMale?: number;
  seatsFemale?: number;
  /** The organiser's results time (epoch ms), or null for the default. */
  resultsAt?: number | null;
  /** When the door opens (epoch ms), or null for the default (docs/decisions/008-door.md). */
  doorsOpenAt?: number | null;
  /** Until when a cancel may be taken as credit (epoch ms), or null for the default, the start (issue 52). */
  creditUntil?: number | null;
  /** Date, Friend and No instead of Like and Dislike (issue 37). */
  offersFriend?: boolean;
  /** Who meets whom (issue 37); Women meet men when left out. */
  format?: EventFormat;
  /** No match? Your next night is on us. (issue 52). */
  noMatchPromise?: boolean;
} & MinimumInput &
  Partial<PricesAndAgesFields>;

/** An edit as update-event's schema hands it over; its text fields are common/event-wire.ts's. */
export type EventUpdateInput = EventTextUpdate & {
  id: number;
  date: string;
  totalSeats: number;
  time?: EventTime;
  durationHours?: number;
  fromAge?: number;
  toAge?: number;
  timeZone?: string;
  /** The price of bookings made from now on; paid bookings keep what they paid. */
  priceCents?: number;
  /** Both numbers to split the seats, both null for one pool again, both left out to keep the plan. */
  seatsMale?: number | null;
  seatsFemale?: number | null;
  /** A results time (epoch ms), null for the default again, left out to keep it. */
  resultsAt?: number | null;
  /** A doors-open time (epoch ms), null for the default again, left out to keep it. */
  doorsOpenAt?: number | null;
  /** A credit-until time (epoch ms), null for the default again (the start), left out to keep it. */
  creditUntil?: number | null;
  /** Date, Friend and No instead of Like and Dislike; left out to keep it. Fixed once the night starts. */
  offersFriend?: boolean;
  /** Who meets whom; left out to keep it. Fixed once the first booking is made. */
  format?: EventFormat;
  /** The no-match promise; left out to keep it. */
  noMatchPromise?: boolean;
} & MinimumInput &
  Partial<PricesAndAgesFields>;
