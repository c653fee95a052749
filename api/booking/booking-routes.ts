import type { IncomingMessage } from "node:http";
import { availableParallelism } from "node:os";
import { createRoute } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { personGenders, wantsToMeetValues } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { noStore } from "../lib/admin-session.ts";
import { clientAddress } from "../lib/client-address.ts";
import { concurrencyLimit } from "../lib/concurrency-limit.ts";
import { BadRequest, DomainError, Forbidden, NotFound } from "../lib/errors.ts";
import { guestSessionOf, startGuestSession } from "../lib/guest-session.ts";
import { readMultipart, readMultipartFrom } from "../lib/multipart-prefix.ts";
import { apiRouter, done, errors, file, fileField, formBody, json, jsonBody, z } from "../lib/openapi.ts";
import { idParam, jsonId, personName } from "../lib/validate.ts";
import { browserVerified, rememberVerifiedPhone } from "./booking-cookie.ts";
import { answersFor, type FormAnswers as FormAnswersSent } from "./format-answers.ts";
import { assertBookable, findEvent } from "./event-lookup.ts";
import { assertCanHold, giveBackSeat, type HeldSeat, holdBeforePhoto } from "./holds.ts";
import { readStoredImage } from "./images.ts";
import { copyKeptPhoto, keepDetails, keptDetailsOf, keptForForm, touchKeptDetails } from "./kept-details.ts";
import { sendOtp, verifyOtp } from "./otp.ts";
import { auMobile, COUNTRY_CODE } from "./phone.ts";
import { photoJobsOf } from "./photo-jobs.ts";
import { assertAgeAllowed } from "./prices.ts";
import { countSave, saveUserDetails } from "./save-details.ts";
import { soldOutMemo } from "./sold-out-memo.ts";
import { offerFreedSeatsNow } from "./waitlist-offers.ts";

const sendOtpBody = z.object({
  phone: auMobile,
  countryCode: z.literal(COUNTRY_CODE, `must be ${COUNTRY_CODE}`),
  // The event being booked (optional, added later): no code is sent for one whose sales have closed.
  eventID: jsonId(z).optional(),
  // Signing in on /me (docs/decisions/027-guest-identity.md): a code is texted even when this browser
  // verified the phone before, since only a code typed now opens a guest session.
  signIn: z.boolean("must be true or false").optional(),
});

const verifyOtpBody = z.object({
  phone: auMobile,
  otp: z.coerce
    .string()
    .trim()
    .regex(/^\d{4,10}$/, "must be the digits of the code"),
  // Also signs this browser in on /me as this phone (the sdt_me session, 30 days).
  signIn: z.boolean("must be true or false").optional(),
});

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
});

/** The details form's fields a seat is held with, read before the photo arrives (booking-routes.ts). */
const fieldsBeforePhoto = detailsForm.pick({
  name: true,
  email: true,
  phone: true,
  gender: true,
  wantsToMeet: true,
  dateOfBirth: true,
  eventID: true,
});

const keptDetailsQuery = z.object({ phone: auMobile });

const sendOtpRoute = createRoute({
  method: "post",
  path: "/send-otp",
  summary:
    "Texts a one-time code to a mobile (none when this browser verified it in the last 30 days, unless signing in on /me)",
  request: jsonBody(sendOtpBody),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), PhoneVerification: z.boolean() })),
    ...errors("post", ["not_found", "booking_closed", "not_taking_bookings", "rate_limited", "provider_failed"]),
  },
});

const verifyOtpRoute = createRoute({
  method: "post",
  path: "/verify-otp",
  summary:
    "Checks the code; this browser then proves the phone (the sdt_phone cookie, 30 days), and with signIn opens its /me session (sdt_me)",
  request: jsonBody(verifyOtpBody),
  responses: {
    200: json(done),
    ...errors("post", ["wrong_code", "code_expired", "rate_limited", "provider_failed"]),
  },
});

const saveUserDetailsRoute = createRoute({
  method: "post",
  path: "/save-user-details",
  summary: "The details form with the photo: holds one seat for this phone for HOLD_MINUTES",
  request: formBody(detailsForm),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), userID: z.number().int(), holdExpiresAt: z.iso.datetime() })),
    ...errors("post", [
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
    ]),
  },
});

const keptDetailsRoute = createRoute({
  method: "get",
  path: "/kept-details",
  summary:
    "The details this verified number kept for next time (to prefill the form), or null; only for a number this browser verified or its /me session",
  request: { query: keptDetailsQuery },
  responses: {
    200: json(
      z.strictObject({
        kept: z
          .strictObject({
            name: z.string(),
            email: z.string(),
            dateOfBirth: z.string(),
            gender: z.enum(personGenders),
            hasPhoto: z.boolean(),
          })
          .nullable(),
      }),
    ),
    ...errors("get", ["invalid_request", "phone_not_verified"]),
  },
});

const keptPhotoRoute = createRoute({
  method: "get",
  path: "/kept-photo",
  summary:
    "The thumbnail of the photo this verified number kept, shown beside Use my saved photo; only for a number this browser verified or its /me session",
  request: { query: keptDetailsQuery },
  responses: {
    200: file("image/jpeg", "The kept photo's thumbnail (re-encoded without metadata)"),
    ...errors("get", ["invalid_request", "phone_not_verified", "not_found"]),
  },
});

const devOutboxRoute = createRoute({
  method: "get",
  path: "/dev/outbox",
  summary: "Every text the local SMS provider sent (development only)",
  responses: {
    200: json(z.array(z.strictObject({ to: z.string(), body: z.string(), createdAt: z.iso.datetime() }))),
    ...errors("get", ["not_found"]),
  },
});

/** The gender and "would like to meet" a save stores, as its event's format asked them. */
type FormatAnswers = ReturnType<typeof answersFor>;

export const bookingRoutes = (deps: AppDeps) => {
  // Photos are decoded a few at a time, first come first served, leaving a core to answer requests.
  // A first save is answered once its seat is held and its photo's header read, and its photo waits
  // here after the answer; a retry's photo is checked against the seats again when its turn comes
  // (docs/decisions/007-scale.md).
  const photoTurn = deps.photoTurn ?? concurrencyLimit(Math.max(1, availableParallelism() - 1));
  // Seats held from the fields sent before the photo (holdBeforePhoto), for the handler to finish.
  const heldBeforePhoto = new WeakMap<Context, HeldSeat>();
  // Saves whose checks before the photo were done from those fields (counted once, not again).
  // and the format's answers those checks settled (issue 37).
  const checkedBeforePhoto = new WeakMap<Context, FormatAnswers>();
  // 403 unless this browser verified `phone` (docs/api.md, "Who may call"), decided before the other fields are
  // judged, so a browser that proved nothing learns nothing about the form either.
  const verifiedPhoneFirst: MiddlewareHandler = async (c, next) => {
    let phone: unknown;
    let held: HeldSeat | undefined;
    try {
      // The photo comes after the other fields (pwa/features/booking/save-user-details.ts): a first
      // save holds its seat as soon as they arrive, and a full event refuses, before the photo is
      // received or parsed (docs/decisions/007-scale.md). The body read is kept for the form parser
      // below and the route's validator.
      const type = c.req.header("content-type") ?? "";
      if (type.startsWith("multipart/form-data")) {
        const whenFieldsIn = (fields: Record<string, string>, fileName: string) => {
          held = holdFromFields(c, fields, fileName);
        };
        // From Node's own stream when the length is declared (api/app.ts checked it): no web Request
        // is built around a body that is, in a rush, nearly always refused after its first bytes.
        const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
        const body =
          incoming && c.req.header("content-length") !== undefined && c.req.header("transfer-encoding") === undefined
            ? readMultipartFrom(incoming, type, whenFieldsIn)
            : readMultipart(c.req.raw, whenFieldsIn);
        // Hono keeps the promise here (its type names the value): c.req.arrayBuffer() then returns it.
        c.req.bodyCache.arrayBuffer = body as unknown as ArrayBuffer;
        await body;
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
    heldBeforePhoto.set(c, held);
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
  // What the route does before the photo, done from the fields before it: 403 for an unverified
  // phone, the save counted, a freed seat offered to the waitlist first, the event's seats and the
  // buyer's age checked, then a first save's seat held. Undefined (the route then does all of it
  // after the whole form) when a field it needs is missing or malformed, or there is no photo.
  const holdFromFields = (c: Context, fields: Record<string, string>, fileName: string) => {
    if (fileName === "") return undefined;
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
    const { gender, wantsToMeet } = checksBeforePhoto(c, early.data, event);
    checkedBeforePhoto.set(c, { gender, wantsToMeet });
    return holdBeforePhoto(
      { db: deps.db, holdMinutes: deps.env.HOLD_MINUTES, now: deps.now },
      { eventId: eventID, name, email, phone, gender, wantsToMeet, dateOfBirth },
    );
  };
  const checksBeforePhoto = (
    c: Context,
    form: { phone: string; dateOfBirth: string; eventID: number } & FormAnswersSent,
    read = findEvent(deps.db, form.eventID),
  ): FormatAnswers => {
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
  };
  // The kept details and their photo: only the number this browser proved (the sdt_phone cookie) or
  // its /me session's. Another number's are never read, whether or not any are kept.
  const assertOwnNumber = (c: Context, phone: string) => {
    if (!browserVerified(c, deps, phone) && guestSessionOf(c, deps)?.phone !== phone)
      throw Forbidden("verify this phone number first", "phone_not_verified");
  };
  return apiRouter()
    .openapi(sendOtpRoute, async (c) => {
      const { phone, eventID, signIn } = c.req.valid("json");
      if (eventID !== undefined) assertBookable(findEvent(deps.db, eventID), deps.now());
      const result = await sendOtp(deps, {
        phone,
        address: clientAddress(c),
        alreadyVerified: !signIn && browserVerified(c, deps, phone),
        limits: { perPhone: deps.env.OTP_MAX_PER_PHONE, perAddress: deps.env.OTP_MAX_PER_ADDRESS },
        now: deps.now(),
      });
      return c.json({ success: true as const, ...result }, 200);
    })
    .openapi(verifyOtpRoute, async (c) => {
      const { phone, otp, signIn } = c.req.valid("json");
      await verifyOtp(deps, phone, otp);
      rememberVerifiedPhone(c, deps, phone);
      if (signIn) startGuestSession(c, deps, phone);
      return c.json({ success: true as const }, 200);
    })
    .openapi({ ...saveUserDetailsRoute, middleware: verifiedPhoneFirst }, async (c) => {
      const form = c.req.valid("form");
      if (!browserVerified(c, deps, form.phone))
        throw Forbidden("verify this phone number first", "phone_not_verified");
      const held = heldBeforePhoto.get(c);
      const { gender, wantsToMeet } = checkedBeforePhoto.get(c) ?? checksBeforePhoto(c, form);
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
    })
    .openapi(keptDetailsRoute, (c) => {
      noStore(c);
      const { phone } = c.req.valid("query");
      assertOwnNumber(c, phone);
      return c.json({ kept: keptForForm(deps.db, phone) }, 200);
    })
    .openapi(keptPhotoRoute, async (c) => {
      const { phone } = c.req.valid("query");
      assertOwnNumber(c, phone);
      const kept = keptDetailsOf(deps.db, phone);
      // NO_PHOTO and a file gone from disk are alike a 404 (readStoredImage checks the name).
      const bytes = await readStoredImage(deps.env.UPLOADS_DIR, kept?.thumbName ?? "");
      return new Response(new Uint8Array(bytes), {
        headers: {
          "content-type": "image/jpeg",
          // A person's photo, read with their cookie: never kept by a shared cache or this browser's.
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
        },
      });
    })
    .openapi(devOutboxRoute, (c) => {
      // Exists only with the console provider, and never in production (docs/api.md, "Who may call").
      if (!deps.devOutbox || deps.env.NODE_ENV === "production") throw NotFound("no such endpoint");
      return c.json(deps.devOutbox.list(), 200);
    });
};
