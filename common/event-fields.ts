import { z } from "zod";
import { EVENT_LIMITS as L } from "./event-limits.ts";
import {
  EVENT_TEXT_FIELDS,
  type EventTextField,
  type EventTextUpdate,
  type NewEventText,
  textOfRequest,
  EVENT_WIRE_NAMES as W,
} from "./event-wire.ts";
import { EVENT_FORMATS } from "./formats.ts";
import { INVISIBLE_CONTROLS_MESSAGE, withoutInvisibleControls } from "./plain-text.ts";
import { canonicalTimeZone } from "./venue-time-input.ts";

/**
 * The fields of save-event and update-event, checked once: the server validates requests with these
 * schemas, and the admin forms take their limits from the same EVENT_LIMITS (common/event-limits.ts).
 * Each schema maps the API's field names (kept as the product first named them: `eventduration`,
 * `fromage`) to the names the services use, so routes hand over what they validated; which wire name
 * each field has is said once, in common/event-wire.ts.
 */

export type EventTime = { hour: number; minute: number };

// Multipart fields arrive as text and JSON clients may send either, so numbers accept both; only
// plain decimals are read as numbers ("1e3", "0x10" and "" stay text and fail).
const numeric = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v), schema);

// Names and addresses are one line of text: control characters (NUL, escape, line breaks) are
// refused, and so are the invisible direction characters and line separators (plain-text.ts).
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "is required")
    .max(max)
    .refine((v) => !/\p{Cc}/u.test(v), "must not contain control characters")
    .refine(withoutInvisibleControls, INVISIBLE_CONTROLS_MESSAGE);
// An optional line of text: left out, empty or blank is none (null).
const optionalText = (max: number) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), text(max).nullable()).optional();

type TextRows = typeof EVENT_TEXT_FIELDS;
type RequiredText = ReturnType<typeof text>;
type OptionalText = ReturnType<typeof optionalText>;
type NewTextShape = {
  [K in EventTextField as TextRows[K]["request"]]: TextRows[K]["required"] extends true ? RequiredText : OptionalText;
};
type UpdateTextShape = {
  [K in EventTextField as TextRows[K]["request"]]: TextRows[K]["onUpdate"] extends "required"
    ? RequiredText
    : TextRows[K]["required"] extends true
      ? z.ZodOptional<RequiredText>
      : OptionalText;
};
const described = <T extends z.ZodType>(schema: T, description: string) => schema.meta({ description });
const textRows = Object.entries(EVENT_TEXT_FIELDS) as [EventTextField, TextRows[EventTextField]][];

/** save-event's text fields (common/event-wire.ts), by their wire names. */
const newTextFields = (): NewTextShape =>
  Object.fromEntries(
    textRows.map(([, f]) => [f.request, described(f.required ? text(f.max) : optionalText(f.max), f.description)]),
  ) as NewTextShape;

/** update-event's text fields: one it may leave out is kept as it is. */
const updateTextFields = (): UpdateTextShape =>
  Object.fromEntries(
    textRows.map(([, f]) => [
      f.request,
      described(
        f.onUpdate === "required" ? text(f.max) : f.required ? text(f.max).optional() : optionalText(f.max),
        f.description,
      ),
    ]),
  ) as UpdateTextShape;

export const eventId = numeric(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));
const seats = numeric(z.number().int().min(L.totalSeats.min).max(L.totalSeats.max));
// Seats kept for one gender (decision 015); a gender may have none. Both or neither: the service checks.
const genderSeats = numeric(z.number().int("must be a whole number").min(L.genderSeats.min).max(L.genderSeats.max));
// Go ahead only with at least (issue 52): a count; empty (multipart) is none.
const minimum = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? null : v),
  numeric(z.number().int("must be a whole number").min(L.minimumBookings.min).max(L.minimumBookings.max)).nullable(),
);
const age = numeric(z.number().int().min(L.age.min).max(L.age.max));
const hours = numeric(z.number().min(L.durationHours.min).max(L.durationHours.max));
const amountCents = numeric(
  z
    .number()
    // Card payments have a floor (Stripe's is 0.50 AUD): a cheaper price could never be paid.
    .min(L.price.min)
    .max(L.price.max)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "at most 2 decimals"),
).transform((v) => Math.round(v * 100));

const date = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD")
  .refine((v) => {
    const d = new Date(`${v}T00:00:00.000Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
  }, "is not a real date");

// The API sends "H:M" (so "9:0"); "09:00" is the same time. Minutes come in quarter hours.
const time = z
  .string()
  .trim()
  .regex(/^\d{1,2}:\d{1,2}$/, "must be H:M")
  .transform((v): EventTime => {
    const [hour, minute] = v.split(":").map(Number) as [number, number];
    return { hour, minute };
  })
  .refine((t) => t.hour <= 23, "hours must be 0-23")
  .refine((t) => (L.minutes as readonly number[]).includes(t.minute), "minutes must be 0, 15, 30 or 45");

// An IANA zone name, stored in its canonical spelling; "Mars/Olympus" and "" are 400.
const timeZone = z
  .string()
  .trim()
  .max(64)
  .transform((v, ctx) => {
    const zone = canonicalTimeZone(v);
    if (!zone) ctx.addIssue({ code: "custom", message: "is not an IANA time zone such as Australia/Sydney" });
    return zone ?? z.NEVER;
  });

// When the matches are released (docs/decisions/021-results.md): an instant with its offset, as the
// answers' `EventDateTime` and `resultsAt` are written; the form turns the venue's clock into one.
const instant = z
  .string()
  .trim()
  .pipe(z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time such as 2026-11-30T01:00:00Z" }))
  .transform((v) => Date.parse(v));
// Multipart sends text only, so an empty field is the default there.
const formInstant = z.union([z.literal("").transform(() => null), instant]);
// A venue-clock date and time as a datetime-local input gives it (`2026-12-20T18:00`); the server
// reads it in the event's zone.
export const localDateTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, "must be YYYY-MM-DDTHH:MM on the venue's clock")
  .refine((v) => date.safeParse(v.slice(0, 10)).success, "is not a real date")
  .transform((v) => ({ date: v.slice(0, 10), hour: Number(v.slice(11, 13)), minute: Number(v.slice(14, 16)) }))
  .refine((t) => t.hour <= 23 && t.minute <= 59, "is not a real time");

export type LocalDateTime = z.output<typeof localDateTime>;

// A form leaves an unused optional field empty: "" is the same as leaving it out.
const blankIsMissing = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema);

/**
 * The **Prices** group and the per-gender ages (docs/decisions/023-prices-and-ages.md), the same on
 * Add and Edit. On Edit, null clears a field and leaving it out keeps it.
 */
const pricesAndAges = {
  // The cancellation policy (docs/decisions/028-cancellation-money-path.md): whole hours and a whole
  // percentage; left out on Add, the defaults (48 hours, 0%); left out on Edit, kept.
  cancelFullRefundHours: blankIsMissing(
    numeric(
      z
        .number()
        .int("must be a whole number of hours")
        .min(L.cancelFullRefundHours.min)
        .max(L.cancelFullRefundHours.max),
    ).optional(),
  ),
  cancelLaterPercent: blankIsMissing(
    numeric(
      z.number().int("must be a whole percentage").min(L.cancelLaterPercent.min).max(L.cancelLaterPercent.max),
    ).optional(),
  ),
  bookingAmountMale: blankIsMissing(amountCents.nullable().optional()),
  bookingAmountFemale: blankIsMissing(amountCents.nullable().optional()),
  earlyBirdDiscount: blankIsMissing(amountCents.nullable().optional()),
  earlyBirdUntil: blankIsMissing(localDateTime.nullable().optional()),
  fromAgeMale: blankIsMissing(age.nullable().optional()),
  toAgeMale: blankIsMissing(age.nullable().optional()),
  fromAgeFemale: blankIsMissing(age.nullable().optional()),
  toAgeFemale: blankIsMissing(age.nullable().optional()),
};

type PricesAndAgesIn = { [K in keyof typeof pricesAndAges]?: z.output<(typeof pricesAndAges)[K]> };

const mapPricesAndAges = (f: PricesAndAgesIn) => ({
  priceMaleCents: f.bookingAmountMale,
  priceFemaleCents: f.bookingAmountFemale,
  earlyBirdDiscountCents: f.earlyBirdDiscount,
  earlyBirdUntil: f.earlyBirdUntil,
  fromAgeMale: f.fromAgeMale,
  toAgeMale: f.toAgeMale,
  fromAgeFemale: f.fromAgeFemale,
  toAgeFemale: f.toAgeFemale,
  cancelFullRefundHours: f.cancelFullRefundHours,
  cancelLaterPercent: f.cancelLaterPercent,
});

export type PricesAndAgesFields = ReturnType<typeof mapPricesAndAges>;

/**
 * A picture sent as a file. Described for the OpenAPI document with zod's own `.meta()` (a file has
 * no JSON Schema of its own); not `.openapi()`, which exists only once @hono/zod-openapi is loaded.
 */
const imageFile = z
  .instanceof(File, { message: "an image file is required" })
  .meta({ type: "string", format: "binary" });

/** save-event (multipart): a new event and its picture. */
export const newEventForm = z
  .object({
    ...newTextFields(),
    eventDate: date,
    eventTime: time,
    [W.totalSeats.request]: seats,
    [W.priceCents.request]: amountCents,
    [W.imageName.request]: imageFile,
    [W.durationHours.request]: hours,
    [W.fromAge.request]: age,
    [W.toAge.request]: age,
    [W.timeZone.request]: timeZone.optional(),
    seatsMale: genderSeats.optional(),
    seatsFemale: genderSeats.optional(),
    resultsAt: formInstant.optional(),
    // When the door opens (docs/decisions/008-door.md): empty for the default, 3 hours before the start.
    doorsOpenAt: formInstant.optional(),
    // Until when a cancel may be taken as credit (issue 52): empty for the default, the start.
    creditUntil: formInstant.optional(),
    // Go ahead only with at least (issue 52): women and men at Women meet men, people at one pool;
    // empty for none. Decided at minimumBy: empty for the default, 48 hours before the start.
    minimumFemale: minimum.optional(),
    minimumMale: minimum.optional(),
    minimumTotal: minimum.optional(),
    minimumBy: formInstant.optional(),
    // No match? Your next night is on us. (issue 52): "1" promises it; "0" or left out, not.
    noMatchPromise: z.enum(["0", "1"]).optional(),
    // Friend as a third choice (issue 37): "1" offers Date, Friend and No; "0" or left out, Like and Dislike.
    offersFriend: z.enum(["0", "1"]).optional(),
    // Who meets whom (issue 37): left out, Women meet men. Fixed once the first booking is made.
    format: z.enum(EVENT_FORMATS, "must be women_men, one_group or mixed").optional(),
    ...pricesAndAges,
  })
  .transform((f) => ({
    ...mapPricesAndAges(f),
    ...textOfRequest<NewEventText>(f),
    date: f.eventDate,
    time: f.eventTime,
    totalSeats: f[W.totalSeats.request],
    priceCents: f[W.priceCents.request],
    durationHours: f[W.durationHours.request],
    fromAge: f[W.fromAge.request],
    toAge: f[W.toAge.request],
    timeZone: f[W.timeZone.request],
    seatsMale: f.seatsMale,
    seatsFemale: f.seatsFemale,
    resultsAt: f.resultsAt ?? null,
    doorsOpenAt: f.doorsOpenAt ?? null,
    creditUntil: f.creditUntil ?? null,
    minimumFemale: f.minimumFemale ?? null,
    minimumMale: f.minimumMale ?? null,
    minimumTotal: f.minimumTotal ?? null,
    minimumBy: f.minimumBy ?? null,
    noMatchPromise: f.noMatchPromise === "1",
    offersFriend: f.offersFriend === "1",
    format: f.format ?? "women_men",
    image: f[W.imageName.request],
  }));

/** update-event (JSON): fields left out keep their values. */
export const eventUpdateBody = z
  .object({
    [W.id.request]: eventId,
    ...updateTextFields(),
    eventDate: date,
    [W.totalSeats.request]: seats,
    eventTime: time.optional(),
    [W.durationHours.request]: hours.optional(),
    [W.fromAge.request]: age.optional(),
    [W.toAge.request]: age.optional(),
    [W.timeZone.request]: timeZone.optional(),
    [W.priceCents.request]: amountCents.optional(),
    // null and null: back to one pool of seats; left out: the plan stays.
    seatsMale: genderSeats.nullable().optional(),
    seatsFemale: genderSeats.nullable().optional(),
    // null: back to the default; left out: kept.
    resultsAt: instant.nullable().optional(),
    // null: back to the default (3 hours before the start); left out: kept.
    doorsOpenAt: instant.nullable().optional(),
    // null: back to the default (the start); left out: kept.
    creditUntil: instant.nullable().optional(),
    // Go ahead only with at least (issue 52): null for none; left out: kept.
    minimumFemale: minimum.optional(),
    minimumMale: minimum.optional(),
    minimumTotal: minimum.optional(),
    // null: back to the default (48 hours before the start); left out: kept.
    minimumBy: instant.nullable().optional(),
    // The no-match promise (issue 52); left out: kept.
    noMatchPromise: z.boolean().optional(),
    // Friend as a third choice (issue 37); left out: kept. Fixed once the night has started.
    offersFriend: z.boolean().optional(),
    // Who meets whom (issue 37); left out: kept. 409 `format_locked` once anyone has booked.
    format: z.enum(EVENT_FORMATS, "must be women_men, one_group or mixed").optional(),
    ...pricesAndAges,
  })
  .transform((b) => ({
    ...mapPricesAndAges(b),
    ...textOfRequest<EventTextUpdate>(b),
    id: b[W.id.request],
    date: b.eventDate,
    totalSeats: b[W.totalSeats.request],
    time: b.eventTime,
    durationHours: b[W.durationHours.request],
    fromAge: b[W.fromAge.request],
    toAge: b[W.toAge.request],
    timeZone: b[W.timeZone.request],
    priceCents: b[W.priceCents.request],
    seatsMale: b.seatsMale,
    seatsFemale: b.seatsFemale,
    resultsAt: b.resultsAt,
    doorsOpenAt: b.doorsOpenAt,
    creditUntil: b.creditUntil,
    minimumFemale: b.minimumFemale,
    minimumMale: b.minimumMale,
    minimumTotal: b.minimumTotal,
    minimumBy: b.minimumBy,
    noMatchPromise: b.noMatchPromise,
    offersFriend: b.offersFriend,
    format: b.format,
  }));

/** update-event-image (multipart). */
export const eventImageForm = z.object({ [W.id.request]: eventId, [W.imageName.request]: imageFile });

export type NewEventFields = z.output<typeof newEventForm>;
export type EventUpdateFields = z.output<typeof eventUpdateBody>;

type ReplyTextShape = {
  [K in EventTextField as TextRows[K]["reply"]]: TextRows[K]["required"] extends true
    ? z.ZodString
    : z.ZodNullable<z.ZodString>;
};

/** The replies' text fields (get-event, get-events), by their wire names: null where an optional one is empty. */
export const textReplyFields = (): ReplyTextShape =>
  Object.fromEntries(
    textRows.map(([, f]) => [f.reply, described(f.required ? z.string() : z.string().nullable(), f.description)]),
  ) as ReplyTextShape;
