import { availableParallelism } from "node:os";
import { createRoute } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { wantsToMeetValues } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { clientAddress } from "../lib/client-address.ts";
import { concurrencyLimit } from "../lib/concurrency-limit.ts";
import { BadRequest, DomainError, Forbidden } from "../lib/errors.ts";
import { isMultipart, readRequestForm } from "../lib/multipart.ts";
import { apiRouter, errors, fileField, formBody, json, z } from "../lib/openapi.ts";
import { idParam, personName } from "../lib/validate.ts";
import { browserVerified } from "./booking-cookie.ts";
import { assertBookable, findEvent } from "./event-lookup.ts";
import { answersFor, type FormAnswers as FormAnswersSent } from "./format-answers.ts";
import { assertCanHold, giveBackSeat, type HeldSeat, holdBeforePhoto } from "./holds.ts";
import { copyKeptPhoto, keepDetails, touchKeptDetails } from "./kept-details.ts";
import { auMobile } from "./phone.ts";
import { photoJobsOf } from "./photo-jobs.ts";
import { assertAgeAllowed } from "./prices.ts";
import { countSave, saveUserDetails } from "./save-details.ts";
import { soldOutMemo } from "./sold-out-memo.ts";
import { takeGivenTicket } from "./transfer-form.ts";
import { offerFreedSeatsNow } from "./waitlist-offers.ts";

// POST /save-user-details, the details form with the photo: its route apart from the rest of the
// booking calls (booking-routes.ts chains it) because of its steps before the photo arrives: the
// fields sent first are checked and a first save's seat held while the photo is still on its way
// (docs/decisions/007-scale.md). The save itself is save-details.ts.

/** A ticked checkbox of a form: the browser sends its value "1", and nothing when it is unticked. */
const tickedBox = () => z.literal("1", "must be 1 when ticked");

const detailsForm = z.object({
  name: personName(z),
  email: z.string().trim().max(254, "must be at most 254 characters").pipe(z.email("must be an email address")),
  phone: auMobile,
  // Woman (`female`) or Man (`male`) at Women meet men; also `nonbinary` at Mixed; left out at One
  // group, which asks none (format-answers.ts; issue 37).
  gender: z.enum(["male", "female", "nonbinary"], "must be male, female or nonbinary").optional(),
  // Mixed nights only: whom they would like to meet. Stored for the planner, shown to nobody.
  wantsToMeet: z.enum(wantsToMeetValues, "must be women, men or everyone").optional(),
  // For the age check on the event's date (docs/decisions/023-prices-and-ages.md); required since
  // the form asks for it, so every hold is checked.
  dateOfBirth: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD")
    .refine((v) => {
      const d = new Date(`${v}T00:00:00.000Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v) && v >= "1900-01-01";
    }, "is not a real date of birth"),
  eventID: idParam(z),
  // The event's name comes from the database; the form's copy is only accepted for compatibility.
  eventName: z.string().max(500).optional(),
  // Optional here so an unverified phone gets its 403 before any hint about the upload.
  image: fileField().optional(),
  // **Keep my details for next time** (docs/decisions/029-kept-details.md): "true" keeps these
  // details and a copy of the photo with the number; absent or "false" keeps nothing new.
  keepDetails: z.enum(["true", "false"], "must be true or false").optional(),
  // **Use my saved photo**: "true" books with a copy of this number's kept photo instead of an upload.
  useSavedPhoto: z.enum(["true", "false"], "must be true or false").optional(),
  // The boxes **Text me about future events** and **Email me about future events** (issue 36): "1"
  // when ticked, absent when not. Never needed to book; an absent box withdraws nothing (holds.ts).
  marketingSms: tickedBox().optional(),
  marketingEmail: tickedBox().optional(),
  // The announcement whose link (`/?event=ID&a=ANN`) led here, counted on it; an unknown one, or
  // another event's, is ignored (holds.ts).
  announcementId: idParam(z).refine(Number.isSafeInteger, "must be a positive integer").optional(),
  // A ticket given to a friend (docs/decisions/058-ticket-transfer.md): the `t` of the friend's link
  // `/transfer?t=`. With it the save takes no seat and no hold: the friend's ticket is the buyer's seat.
  transferToken: z.string().min(1).max(200, "must be at most 200 characters").optional(),
});

/** The details form's fields a seat is held with, read before the photo arrives (verifiedPhoneFirst). */
const fieldsBeforePhoto = detailsForm.pick({
  name: true,
  email: true,
  phone: true,
  gender: true,
  wantsToMeet: true,
  dateOfBirth: true,
  eventID: true,
});

const saveUserDetailsRoute = createRoute({
  method: "post",
  path: "/save-user-details",
  summary: "The details form with the photo: holds one seat for this phone for HOLD_MINUTES",
  description: [
    "- **Who:** verified-phone browser (for this `phone`; judged before the other fields).",
    "- **Body (multipart):**",
    "  - `gender`: by the event's `format` (docs/decisions/037-formats-on-the-night.md): `male` or",
    "    `female` at `women_men`; `female`, `male` or `nonbinary` at `mixed`; left out at `one_group`,",
    "    which asks none (stored `unasked`). A gender where none is asked, or a value the format does not",
    "    offer, is 400 `invalid_request`.",
    "  - `wantsToMeet?`: `mixed` only, and required there: `women`, `men` or `everyone`. Elsewhere 400.",
    "    Stored for the planner; no reply ever shows it, nor the CSV (test/wants-to-meet-isolation.test.ts).",
    "  - `dateOfBirth`: `YYYY-MM-DD`, a real date from 1900. The age on the event's date at the venue must",
    "    be within the range for this gender (`fromAgeMale`…, else `from_age`–`to_age`); checked before",
    "    the photo is read, and nothing is held or stored when it is not. Kept with the attendee, erased",
    "    with the rest after `RETENTION_DAYS`, shown to staff only as an age.",
    "  - `eventName?`: text ≤ 500, ignored (the name comes from the database).",
    "  - `image`: file, required and not empty (unless `useSavedPhoto`), ≤ 5,242,880 bytes, a JPEG, PNG",
    "    or WebP by its bytes (whatever its name or type say). Stored re-encoded without metadata, with a",
    "    thumbnail.",
    "  - `keepDetails?`: `true` or `false` (**Keep my details for next time**). `true` keeps these",
    "    details and a copy of the photo with the number (docs/decisions/029-kept-details.md), replacing",
    "    what it kept before; absent or `false` keeps nothing new. Either way a save counts as a booking",
    "    for the kept details' 18 months.",
    "  - `useSavedPhoto?`: `true` or `false` (**Use my saved photo**). With `true` and no upload, the",
    "    booking gets a copy of this number's kept photo; 400 `invalid_request` when it keeps none. An",
    "    upload wins over it.",
    "  - `marketingSms?`, `marketingEmail?`: `1` when ticked, absent when not (**Text me about future",
    "    events**, **Email me about future events**; unticked on the form, never needed to book). A",
    "    ticked box records a yes (source `booking`, the wording's version, the time, this phone) for",
    "    this phone's texts or for the `email` given, with the hold, before the reply. An absent box records",
    "    nothing: it withdraws no earlier yes (docs/decisions/034-invitations.md).",
    "  - `announcementId?`: id (text), the announcement whose link (`/?event=ID&a=ANN`) led here; stored",
    "    on the booking, which counts on it. One that does not exist or is another event's is ignored.",
    "  - `transferToken?`: text ≤ 200, the `t` of a friend's link `/transfer?t=` (`transfer-ticket`,",
    "    docs/decisions/058-ticket-transfer.md). The verified `phone` must be the number the link was",
    "    texted to; the form is judged as above (age, format, photo), the same side as the buyer at Women",
    "    meet men. No seat is held: in one transaction the buyer's booking becomes `transferred` (NOT",
    "    VALID at the door, on the ticket and in the wallet) and this phone gets its own paid booking,",
    "    ticket code and QR, texted and emailed as a paid booking's are, with no payment of its own (the",
    "    sale's money moves with the seat; the invoice stays the buyer's); the seat count does not change.",
    "    Answered `{success: true, userID, transferred: true}`, with nothing of the buyer. Refused: 403",
    "    `invalid_link` (not a transfer link), 403 `forbidden` (texted to another number), 409",
    "    `transfer_ended` (used, replaced, or its ticket refunded, cancelled or given), `transfer_doors_open`,",
    "    `transfer_has_ticket`, `transfer_wrong_side` (with `gender`), `age_out_of_range`. Two acceptances",
    "    of one link at once: one wins, the other is `transfer_ended`.",
    "- **200:** `{success: true, userID, holdExpiresAt}`: one seat is held for this phone for",
    "  `HOLD_MINUTES` (default 30), until `holdExpiresAt` (ISO 8601 UTC). A retry replaces the phone's",
    "  earlier hold instead of taking a second seat, and keeps that hold's expiry (the same",
    "  `holdExpiresAt`). A live waitlist offer of this phone is used up by it. Seats are never oversold.",
    "  The price is fixed now: the gender's price less the early bird if it runs when the phone first",
    "  held the seat (a retry keeps it; a promo code applied to the replaced hold must be applied again).",
    "- **The seat first, the photo after** (docs/decisions/007-scale.md): the fields sent before the",
    "  `image` part (the PWA sends them first) are read as they arrive. A phone's first save for the event",
    "  (no booking of its own there, no live waitlist offer) holds its seat there and then, and an unknown,",
    "  closed or full event is refused at once, before the photo is received or parsed. The reply comes",
    "  once the whole photo has arrived and its header reads as a JPEG, PNG or WebP; the photo is decoded,",
    "  re-encoded and attached just after it (with the kept details, when asked), a few photos at a time.",
    "  A photo refused before the reply (413, 415, a cut-off upload) or a field after it that is refused",
    "  gives the seat back at once, leaving no booking. `create-checkout-session` waits for the photo; one",
    "  that fails after the reply (data that is cut short or corrupt behind a good header) gives the seat",
    "  back, and the checkout answers 415 `not_an_image`. A retry, a waitlist offer's save, and a form",
    "  whose fields come after its photo keep the order photo, then seat, and answer once it is stored.",
  ].join("\n"),
  request: formBody(detailsForm),
  responses: {
    200: json(
      z.union([
        z.strictObject({ success: z.literal(true), userID: z.number().int(), holdExpiresAt: z.iso.datetime() }),
        z.strictObject({ success: z.literal(true), userID: z.number().int(), transferred: z.literal(true) }),
      ]),
    ),
    ...errors(
      "post",
      [
        "phone_not_verified",
        "not_found",
        "age_out_of_range",
        "booking_closed",
        "not_taking_bookings",
        "already_booked",
        "sold_out",
        "gender_sold_out",
        "not_an_image",
        "rate_limited",
        "invalid_link",
        "forbidden",
        "transfer_ended",
        "transfer_doors_open",
        "transfer_has_ticket",
        "transfer_wrong_side",
      ],
      {
        403: "`phone_not_verified`; with `transferToken`: `invalid_link`, or `forbidden` (the link was texted to another number).",
        404: "`not_found` (event).",
        409: "`age_out_of_range` (message `This event is for ages 25–35` with the range that applies, and `fromAge`, `toAge`), `booking_closed`, `not_taking_bookings`, `already_booked` (with `alreadyBooked: true`), `sold_out`, `gender_sold_out` (with `gender`).",
      },
    ),
  },
});

/** The gender and "would like to meet" a save stores, as its event's format asked them. */
type FormatAnswers = ReturnType<typeof answersFor>;

/** What the steps before the photo settled for a request, kept for its handler. */
type BeforePhoto = {
  // Seats held from the fields sent before the photo (holdBeforePhoto), for the handler to finish.
  held: WeakMap<Context, HeldSeat>;
  // Saves whose checks before the photo were done from those fields (counted once, not again),
  // and the format's answers those checks settled (issue 37).
  checked: WeakMap<Context, FormatAnswers>;
};

// 403 unless this browser verified `phone` (docs/api.md, "Who may call"), decided before the other fields are
// judged, so a browser that proved nothing learns nothing about the form either.
function verifiedPhoneFirst(deps: AppDeps, before: BeforePhoto): MiddlewareHandler {
  return async (c, next) => {
    let phone: unknown;
    let held: HeldSeat | undefined;
    try {
      // The photo comes after the other fields (pwa/features/booking/save-user-details.ts): a first
      // save holds its seat as soon as they arrive, and a full event refuses, before the photo is
      // received (docs/decisions/007-scale.md). The form is read once, here: parseBody below and
      // the route's validator read what this read kept.
      if (isMultipart(c)) {
        await readRequestForm(c, (fields, fileName) => {
          held = holdFromFields(deps, before, c, fields, fileName);
        });
      }
      phone = (await c.req.parseBody()).phone;
    } catch (error) {
      if (held) giveBackSeat(deps.db, held);
      if (error instanceof DomainError) throw error;
      throw BadRequest("the form could not be read");
    }
    const parsed = auMobile.safeParse(phone);
    if (parsed.success && !browserVerified(c, deps, parsed.data)) {
      if (held) giveBackSeat(deps.db, held);
      throw Forbidden("verify this phone number first", "phone_not_verified");
    }
    if (!held) return next();
    before.held.set(c, held);
    // Whatever refuses the save after its seat was held (a field after the photo, the photo itself,
    // a lost connection) gives the seat back; only a save answered 200 keeps it.
    let kept = false;
    try {
      await next();
      kept = c.res.status === 200;
    } finally {
      if (!kept) giveBackSeat(deps.db, held);
    }
  };
}

// What the route does before the photo, done from the fields before it: 403 for an unverified
// phone, the save counted, a freed seat offered to the waitlist first, the event's seats and the
// buyer's age checked, then a first save's seat held. Undefined (the route then does all of it
// after the whole form) when a field it needs is missing or malformed, or there is no photo.
function holdFromFields(
  deps: AppDeps,
  before: BeforePhoto,
  c: Context,
  fields: Record<string, string>,
  fileName: string,
): HeldSeat | undefined {
  // A friend taking a given ticket holds no seat (transfer-form.ts): judged with the whole form.
  if (fileName === "" || fields.transferToken !== undefined) return undefined;
  const early = fieldsBeforePhoto.safeParse(fields);
  if (!early.success) return undefined;
  const { name, email, phone, dateOfBirth, eventID } = early.data;
  if (!browserVerified(c, deps, phone)) throw Forbidden("verify this phone number first", "phone_not_verified");
  const memo = soldOutMemo(deps.db);
  const event = memo.event(eventID, deps.now()) ?? findEvent(deps.db, eventID);
  if (!event) return undefined;
  // A format's question answered after the photo (or not at all) is judged with the whole form.
  let sent: FormatAnswers;
  try {
    sent = answersFor(event, early.data);
  } catch {
    return undefined;
  }
  // An event (or gender) already known to be full refuses a first save here, counting nothing:
  // in an on-sale rush that is nearly every form (sold-out-memo.ts).
  const refusal = memo.refusal(eventID, phone, sent.gender, deps.now());
  if (refusal) throw refusal;
  const { gender, wantsToMeet } = checksBeforePhoto(deps, c, early.data, event);
  before.checked.set(c, { gender, wantsToMeet });
  return holdBeforePhoto(
    { db: deps.db, holdMinutes: deps.env.HOLD_MINUTES, now: deps.now },
    { eventId: eventID, name, email, phone, gender, wantsToMeet, dateOfBirth },
  );
}

function checksBeforePhoto(
  deps: AppDeps,
  c: Context,
  form: { phone: string; dateOfBirth: string; eventID: number } & FormAnswersSent,
  read = findEvent(deps.db, form.eventID),
): FormatAnswers {
  // Every save may store a photo pair and a users row: one verified phone (or one address) gets
  // 10 an hour, so a loop cannot fill the disk (docs/decisions/012-disk-and-personal-data.md).
  countSave(
    deps.db,
    { phone: form.phone, address: clientAddress(c), otpMaxPerAddress: deps.env.OTP_MAX_PER_ADDRESS },
    deps.now(),
  );
  // A seat freed by the clock alone (a hold that ran out) goes to the first person waiting before
  // anyone else can take it, even ahead of the scheduler's next tick (decision 015).
  offerFreedSeatsNow(deps, form.eventID);
  // The event and the seats of this gender before the photo: a closed or sold-out event costs no
  // image work (decision 007); holdSeat checks again inside its transaction.
  const event = read;
  assertBookable(event, deps.now());
  // The questions the event's format asks, answered as it asks them (issue 37).
  const answers = answersFor(event, form);
  try {
    assertCanHold(deps.db, { event, phone: form.phone, gender: answers.gender }, deps.now());
  } catch (error) {
    // Full for everyone (or this gender): the next first saves are refused from memory.
    if (error instanceof DomainError) soldOutMemo(deps.db).remember(event, error, deps.now());
    throw error;
  }
  // Too young or too old for the event: refused before the photo, holding nothing (decision 023).
  assertAgeAllowed(event, answers.gender, form.dateOfBirth);
  return answers;
}

export const saveDetailsRoutes = (deps: AppDeps) => {
  // Photos are decoded a few at a time, first come first served, leaving a core to answer requests.
  // A first save is answered once its seat is held and its photo's header read, and its photo waits
  // here after the answer; a retry's photo is checked against the seats again when its turn comes
  // (docs/decisions/007-scale.md).
  const photoTurn = deps.photoTurn ?? concurrencyLimit(Math.max(1, availableParallelism() - 1));
  const before: BeforePhoto = { held: new WeakMap(), checked: new WeakMap() };
  return apiRouter().openapi({ ...saveUserDetailsRoute, middleware: verifiedPhoneFirst(deps, before) }, async (c) => {
    const form = c.req.valid("form");
    if (!browserVerified(c, deps, form.phone)) throw Forbidden("verify this phone number first", "phone_not_verified");
    const held = before.held.get(c);
    if (form.transferToken !== undefined) {
      // A token sent after the photo found a seat held from the fields before it: given back.
      if (held) giveBackSeat(deps.db, held);
      return c.json(await takeGivenTicket(deps, clientAddress(c), form, form.transferToken, photoTurn), 200);
    }
    const { gender, wantsToMeet } = before.checked.get(c) ?? checksBeforePhoto(deps, c, form);
    // A browser sends an empty, nameless file when none was chosen.
    const upload = form.image && form.image.size > 0 ? form.image : undefined;
    const useSaved = form.useSavedPhoto === "true" && !upload;
    if (!upload && !useSaved) throw BadRequest("Add a photo of yourself.");
    // The seat first, the photo after, for a first save (saveUserDetails, decision 007).
    const { userId, holdExpiresAt, photo } = await saveUserDetails(
      {
        db: deps.db,
        uploadsDir: deps.env.UPLOADS_DIR,
        holdMinutes: deps.env.HOLD_MINUTES,
        now: deps.now,
        photoTurn,
        consentMail: deps.env,
      },
      {
        eventId: form.eventID,
        name: form.name,
        email: form.email,
        phone: form.phone,
        gender,
        wantsToMeet,
        dateOfBirth: form.dateOfBirth,
        // Only this verified number's own kept photo, copied for this booking's row (decision 029).
        image: upload ?? (() => copyKeptPhoto({ db: deps.db, uploadsDir: deps.env.UPLOADS_DIR }, form.phone)),
        marketing: { sms: form.marketingSms === "1", email: form.marketingEmail === "1" },
        announcementId: form.announcementId,
        heldBeforePhoto: held,
      },
    );
    const now = deps.now();
    if (form.keepDetails === "true") {
      // Kept with the stored photo, once it is stored (a first save's comes after this reply). Kept
      // details that fail to save cost the booking nothing: the next form starts empty.
      const { name, email, phone, dateOfBirth } = form;
      const kept = photo.then((stored) =>
        keepDetails(
          { db: deps.db, uploadsDir: deps.env.UPLOADS_DIR, now },
          { name, email, phone, gender, dateOfBirth, photo: stored },
        ).catch((error: unknown) => deps.log("error", "keeping the details failed", { error: String(error) })),
      );
      photoJobsOf(deps.db).track(userId, kept, { phone, now, forgetAt: holdExpiresAt });
    } else touchKeptDetails(deps.db, form.phone, now);
    // Until when the seat is kept, so the confirmation page can say so (a retry keeps the first expiry).
    return c.json(
      { success: true as const, userID: userId, holdExpiresAt: new Date(holdExpiresAt).toISOString() },
      200,
    );
  });
};
