// Every table the selling side of a night reads and writes: events, the people and their bookings,
// payments, refunds, documents, the outbox, the waitlist and feedback. Why one file: they reference each
// other, so they read top to bottom in one place; the night's rounds, hosts' access and marketing
// live apart (rounds-schema.ts, access-schema.ts, marketing-schema.ts).
import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { EVENT_FORMATS, type EventFormat } from "../common/formats.ts";

// Times are stored as integer milliseconds since the epoch (UTC) unless a column says otherwise;
// the API turns them into ISO 8601 UTC strings (docs/api.md, Formats).
const createdAt = () => integer("created_at").notNull().default(sql`(unixepoch('subsec') * 1000)`);

export const genders = ["male", "female"] as const;
/**
 * Who a guest is, as their booking asked (issue 37, docs/decisions/037-formats-on-the-night.md):
 * `female` or `male` (Woman, Man) at Women meet men and Mixed, `nonbinary` (Non-binary) at
 * Mixed only, and `unasked` at One group, whose booking asks no gender (one pool, everyone meets
 * everyone). Seats, prices and ages by gender apply to `female` and `male` only.
 */
export const personGenders = ["male", "female", "nonbinary", "unasked"] as const;
export type PersonGender = (typeof personGenders)[number];
/** A woman or a man: the genders balanced seats, prices and ages by gender count. */
export const isWomanOrMan = (gender: PersonGender): gender is Gender => gender === "male" || gender === "female";
/** Whom a guest at a Mixed night would like to meet: sensitive (APP 3), shown to nobody but the planner. */
export const wantsToMeetValues = ["women", "men", "everyone"] as const;
export type WantsToMeet = (typeof wantsToMeetValues)[number];
export const eventFormats = EVENT_FORMATS;
export type { EventFormat };
/** A partner choice: Date (`like`), Friend (`friend`, where the event offers it) or No (`dislike`). */
export const feedbackValues = ["like", "friend", "dislike"] as const;
export type FeedbackChoice = (typeof feedbackValues)[number];
export type Gender = (typeof genders)[number];

export const eventStatuses = ["upcoming", "started", "ended", "cancelled"] as const;
export type EventStatus = (typeof eventStatuses)[number];

export const events = sqliteTable(
  "events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    imageName: text("image_name").notNull(),
    startsAt: integer("starts_at").notNull(),
    // The venue's IANA zone: `startsAt` is UTC, and people read it on this clock.
    timeZone: text("time_zone").notNull(),
    address: text("address").notNull(),
    // Venue notes: one optional line for finding the room (docs/decisions/044-one-name-per-field.md).
    venueNotes: text("venue_notes"),
    // AUD cents, so sums and refunds never meet floating point.
    priceCents: integer("price_cents").notNull(),
    durationHours: real("duration_hours").notNull(),
    // Who meets whom (issue 37): `women_men` (balanced seats), `one_group` (everyone meets everyone,
    // one pool of seats) or `mixed` (each guest says whom they would like to meet). Fixed once booked.
    format: text("format", { enum: eventFormats }).notNull().default("women_men"),
    // Friend as a third choice beside Date (stored `like`) and No (`dislike`): set on Add or Edit.
    offersFriend: integer("offers_friend", { mode: "boolean" }).notNull().default(false),
    fromAge: integer("from_age").notNull(),
    toAge: integer("to_age").notNull(),
    // A gender's own age range, each bound falling back to fromAge/toAge when null (decision 023).
    fromAgeMale: integer("from_age_male"),
    toAgeMale: integer("to_age_male"),
    fromAgeFemale: integer("from_age_female"),
    toAgeFemale: integer("to_age_female"),
    // A gender's own price (cents), overriding priceCents; then an early-bird amount off until an
    // instant the organiser gave on the venue's clock (docs/decisions/023-prices-and-ages.md).
    priceMaleCents: integer("price_male_cents"),
    priceFemaleCents: integer("price_female_cents"),
    earlyBirdDiscountCents: integer("early_bird_discount_cents"),
    earlyBirdUntil: integer("early_bird_until"),
    totalSeats: integer("total_seats").notNull(),
    // Balanced rooms: both set (summing to totalSeats) or both null for one pool of seats.
    seatsMale: integer("seats_male"),
    seatsFemale: integer("seats_female"),
    status: text("status", { enum: eventStatuses }).notNull().default("upcoming"),
    // When the organiser started and ended the night (epoch ms); null before. A night may start
    // before its planned time, and the door and the rounds go by when it really did.
    startedAt: integer("started_at"),
    endedAt: integer("ended_at"),
    // When results are released (docs/decisions/021-results.md): the organiser's choice, or null for
    // the default, 12:00 PM the day after the start day on the venue's clock (common/results-time.ts),
    // which then follows a moved start. `resultsReleasedAt` is set once, by Release results or the
    // scheduler; ratings close and the report opens at that moment.
    resultsAt: integer("results_at"),
    resultsReleasedAt: integer("results_released_at"),
    // When the door may check people in (docs/decisions/008-door.md): the organiser's time, or null for
    // the default, 3 hours before the start (common/doors-open.ts). **Open doors now** sets it to the
    // moment it was pressed.
    doorsOpenAt: integer("doors_open_at"),
    // Until when a guest's cancel may be taken as credit of the full price (issue 52); null: the start.
    creditUntil: integer("credit_until"),
    // Go ahead only with at least (issue 52, common/minimum-numbers.ts): women and men at Women meet
    // men, people in all at one pool; null for none. Decided at minimumBy (null: 48 hours before).
    minimumFemale: integer("minimum_female"),
    minimumMale: integer("minimum_male"),
    minimumTotal: integer("minimum_total"),
    minimumBy: integer("minimum_by"),
    // No match? Your next night is on us. (issue 52): shown on the card and the confirmation.
    noMatchPromise: integer("no_match_promise", { mode: "boolean" }).notNull().default(false),
    // The check at minimumBy ran (once), and found the night short (the desk's **Short of numbers**);
    // **Move to another night** sets where its guests were asked to go (db/guest-choice-schema.ts).
    minimumCheckedAt: integer("minimum_checked_at"),
    shortOfNumbersAt: integer("short_of_numbers_at"),
    movedToEventId: integer("moved_to_event_id"),
    // The guest's cancellation policy (docs/decisions/028-cancellation-money-path.md): a full refund
    // until this many hours before the start, then this percentage of what was paid (0: none).
    cancelFullRefundHours: integer("cancel_full_refund_hours").notNull().default(48),
    cancelLaterPercent: integer("cancel_later_percent").notNull().default(0),
    // Set once RETENTION_DAYS after the end, when the attendees' photos and contact details are erased.
    personalDataErasedAt: integer("personal_data_erased_at"),
    createdAt: createdAt(),
  },
  (t) => [index("events_starts_at").on(t.startsAt)],
);

/** An attendee as entered on the details form; one row per booking attempt. */
export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    gender: text("gender", { enum: personGenders }).notNull(),
    // Mixed nights only (issue 37): whom they would like to meet; null everywhere else. Read by the
    // planner and its organiser view alone, never in another reply or the CSV, and erased with the
    // rest of the row (api/ops/retention.ts).
    wantsToMeet: text("wants_to_meet", { enum: wantsToMeetValues }),
    imageName: text("image_name").notNull(),
    thumbName: text("thumb_name").notNull(),
    // YYYY-MM-DD, for the age check; personal data, erased with the rest (retention.ts). Null on
    // rows saved before the form asked for it.
    dateOfBirth: text("date_of_birth"),
    createdAt: createdAt(),
  },
  (t) => [index("users_phone").on(t.phone)],
);

export const bookingStatuses = ["held", "paid", "refunded", "released", "cancelled", "transferred"] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

/**
 * A seat. `held` counts against the event's seats until `holdExpiresAt`; `paid` counts until it is
 * refunded; `released` (expired or cancelled holds), `refunded` before the start, `cancelled` (the
 * guest cancelled after the policy's cut-off, so nothing came back) and `transferred` (the guest gave
 * the ticket to a friend, whose own booking now holds the seat: docs/decisions/058-ticket-transfer.md)
 * never count.
 */
export const bookings = sqliteTable(
  "bookings",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id),
    phone: text("phone").notNull(),
    status: text("status", { enum: bookingStatuses }).notNull().default("held"),
    holdExpiresAt: integer("hold_expires_at").notNull(),
    // When the phone first held this seat, carried over by a repeated save: no renewal outlasts
    // HOLD_MINUTES plus one checkout from it. Null on older rows (they count from created_at).
    heldSince: integer("held_since"),
    amountCents: integer("amount_cents").notNull(),
    // The price fixed when the seat was held (decision 023): the gender's list price, and the discount
    // off it (the early bird taken off then plus a promo code's part), so amountCents = list − discount.
    // Null list on rows from before prices had parts (their discount is 0).
    listPriceCents: integer("list_price_cents"),
    earlyBirdCents: integer("early_bird_cents").notNull().default(0),
    discountCents: integer("discount_cents").notNull().default(0),
    promoCodeId: integer("promo_code_id").references(() => promoCodes.id),
    // Paid past the code's maxUses (a checkout that outlived its hold): charged what it showed, and
    // counted for the organiser as an overrun (docs/decisions/023-prices-and-ages.md).
    promoOverrun: integer("promo_overrun", { mode: "boolean" }).notNull().default(false),
    // Of amountCents, what the guest's credit paid (docs/decisions/057-credit.md); the card paid the rest.
    creditCents: integer("credit_cents").notNull().default(0),
    // A refund after the event started keeps the seat (it was used); this records whether it counts.
    seatReleased: integer("seat_released", { mode: "boolean" }).notNull().default(false),
    paymentIntentId: text("payment_intent_id"),
    uniqueCode: text("unique_code"),
    confirmationSentAt: integer("confirmation_sent_at"),
    checkedInAt: integer("checked_in_at"),
    leftAt: integer("left_at"), // the host's **Left** on the Rounds tab: came, then went home early
    // Written when the night ends (api/night/attendance.ts, recordAttendance), for the reports (issue
    // 51): whether this paid guest came, by the one rule whoCame applies, and how many partners they
    // met in the rounds (null at a night run without the rounds). Null before the end.
    came: integer("came", { mode: "boolean" }),
    dates: integer("dates"),
    // The number as a keyed hash (api/lib/guest-key.ts), set when the booking is paid: the reports count
    // guests who come back by it after RETENTION_DAYS erased the number. It cannot be turned back
    // into the number; Delete my details clears it (docs/decisions/056-reports.md).
    guestKey: text("guest_key"),
    paidAt: integer("paid_at"),
    // The buyer's address refused an email for good (an SMTP 5xx): when, and the server's reason with
    // any address in it blanked. The booking stands; the organiser sees it (docs/decisions/031).
    emailFailedAt: integer("email_failed_at"),
    emailError: text("email_error"),
    // Booked through an announcement's link (`?a=`): counted on it (db/marketing-schema.ts).
    announcementId: integer("announcement_id"),
    // A ticket given by a friend (docs/decisions/058-ticket-transfer.md): the buyer's booking it came
    // from. Such a booking carries the sale's money (price, payment, paid time) so every sum counts
    // it once; the invoice stays the buyer's. It cannot be given on again.
    transferredFrom: integer("transferred_from"),
    createdAt: createdAt(),
  },
  (t) => [
    // Counting an event's seats (api/booking/seats.ts) reads only this index, whatever the number of
    // bookings: the hold race of docs/decisions/007-scale.md. It also serves lookups by event and status.
    index("bookings_seats").on(t.eventId, t.status, t.holdExpiresAt, t.seatReleased, t.phone, t.userId),
    index("bookings_phone_event").on(t.phone, t.eventId),
    uniqueIndex("bookings_payment_intent").on(t.paymentIntentId),
    uniqueIndex("bookings_user").on(t.userId),
    index("bookings_promo_code").on(t.promoCodeId, t.status),
    // The reports (issue 51; bench/README.md, "Reports"). Each is partial: a seat held and not paid is
    // in none of them (but bookings_announcement, for a hold made through an invitation's link), so
    // the hold race writes no more than it did. Paid or refunded sales by when they were paid (money,
    // prices, guests who come back), read from the index alone:
    index("bookings_paid")
      .on(t.status, t.paidAt, t.guestKey, t.amountCents, t.paymentIntentId)
      .where(sql`${t.paidAt} is not null`),
    // A number's earlier paid nights (guests who come back), and Delete my details by key.
    index("bookings_guest_key").on(t.guestKey, t.status, t.paidAt).where(sql`${t.guestKey} is not null`),
    // A night's paid seats in the order they were paid (seats), who came (matches), and a paid guest
    // by attendee (matches).
    index("bookings_paid_event").on(t.eventId, t.status, t.paidAt, t.userId, t.came).where(sql`${t.status} = 'paid'`),
    index("bookings_paid_user").on(t.userId, t.status, t.eventId, t.came).where(sql`${t.status} = 'paid'`),
    // Bookings made through an invitation's link (invitations).
    index("bookings_announcement").on(t.announcementId, t.status).where(sql`${t.announcementId} is not null`),
  ],
);

/**
 * An event's promo codes. `code` is stored upper case and matched ignoring case. A use is a booking
 * naming the code that is paid or still held (decision 023); a lapsed hold gives its use back.
 */
export const promoCodes = sqliteTable(
  "promo_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id),
    code: text("code").notNull(),
    // Exactly one of the two.
    percentOff: integer("percent_off"),
    amountOffCents: integer("amount_off_cents"),
    maxUses: integer("max_uses"),
    validUntil: integer("valid_until"),
    gender: text("gender", { enum: genders }),
    disabledAt: integer("disabled_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("promo_codes_event_code").on(t.eventId, t.code)],
);

/** One-time codes issued by the console SMS provider (Twilio Verify keeps its own). */
export const phoneVerifications = sqliteTable(
  "phone_verifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    phone: text("phone").notNull(),
    codeHash: text("code_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    consumedAt: integer("consumed_at"),
    createdAt: createdAt(),
  },
  (t) => [index("phone_verifications_phone").on(t.phone, t.createdAt)],
);

/** Hits counted by the rate limiter: OTP sends per phone and per address, admin login failures. */
export const rateLimitHits = sqliteTable(
  "rate_limit_hits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bucket: text("bucket").notNull(),
    key: text("key").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("rate_limit_hits_bucket_key_at").on(t.bucket, t.key, t.at)],
);

export const checkoutSessions = sqliteTable(
  "checkout_sessions",
  {
    id: text("id").primaryKey(),
    bookingId: integer("booking_id")
      .notNull()
      .references(() => bookings.id),
    provider: text("provider", { enum: ["stripe", "local"] }).notNull(),
    amountCents: integer("amount_cents").notNull(),
    // Credit spent on this checkout besides the card's amountCents; given back if it ends unpaid.
    creditCents: integer("credit_cents").notNull().default(0),
    currency: text("currency").notNull().default("aud"),
    status: text("status", { enum: ["open", "paid", "expired", "cancelled"] })
      .notNull()
      .default("open"),
    paymentIntentId: text("payment_intent_id"),
    url: text("url").notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("checkout_sessions_booking").on(t.bookingId)],
);

export const feedback = sqliteTable(
  "feedback",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    fromUserId: integer("from_user_id")
      .notNull()
      .references(() => users.id),
    toUserId: integer("to_user_id")
      .notNull()
      .references(() => users.id),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id),
    value: text("value", { enum: feedbackValues }).notNull(),
    // The tap's time on the phone: the newest tap wins, however late or often it arrives.
    clientTs: integer("client_ts").notNull(),
    updatedAt: integer("updated_at").notNull(),
    // Who made the choice: the guest on their phone, or staff typing in a paper card. A staff card
    // never replaces the guest's own choice (api/night/ratings.ts, docs/decisions/021-results.md).
    ratedBy: text("rated_by", { enum: ["guest", "staff"] })
      .notNull()
      .default("guest"),
  },
  (t) => [
    uniqueIndex("feedback_from_to_event").on(t.fromUserId, t.toUserId, t.eventId),
    // Each pair's Date and Friend choices side by side (the matches report, issue 51): a pair is its
    // lower and higher attendee id, so both directions of one pair are neighbours in the index.
    index("feedback_pair")
      .on(
        t.eventId,
        sql`min(${t.fromUserId}, ${t.toUserId})`,
        sql`max(${t.fromUserId}, ${t.toUserId})`,
        t.value,
        t.fromUserId,
        t.toUserId,
      )
      .where(sql`${t.value} in ('like', 'friend')`),
  ],
);

/** Why a payment was refunded: the organiser, no seat for a late payment, or the guest's own cancel. */
export const refundReasons = ["admin", "no_seat", "guest_cancel"] as const;

export const refunds = sqliteTable(
  "refunds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bookingId: integer("booking_id")
      .notNull()
      .references(() => bookings.id),
    paymentIntentId: text("payment_intent_id").notNull(),
    refundId: text("refund_id").notNull(),
    amountCents: integer("amount_cents").notNull(),
    reason: text("reason", { enum: refundReasons }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("refunds_payment_intent").on(t.paymentIntentId),
    // Refunds by when they were made (the money report and the GST summary).
    index("refunds_created_at").on(t.createdAt, t.amountCents),
  ],
);

/**
 * A refund decided on, written in the IMMEDIATE transaction that decides it and before the provider
 * is asked (docs/decisions/002-seats-holds-and-payment.md). The refund is done once `refunds` holds a
 * row for the same payment; a claim without one is a refund a crash or a provider failure left
 * half-done, which a retry or the background job finishes with the claim's idempotency key. One claim
 * per payment and per key: a payment is refunded once.
 */
export const refundClaims = sqliteTable(
  "refund_claims",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bookingId: integer("booking_id")
      .notNull()
      .references(() => bookings.id),
    paymentIntentId: text("payment_intent_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    amountCents: integer("amount_cents").notNull(),
    reason: text("reason", { enum: refundReasons }).notNull(),
    claimedAt: integer("claimed_at").notNull(),
  },
  (t) => [
    uniqueIndex("refund_claims_payment_intent").on(t.paymentIntentId),
    uniqueIndex("refund_claims_idempotency_key").on(t.idempotencyKey),
    index("refund_claims_claimed_at").on(t.claimedAt),
  ],
);

/**
 * What a document is (docs/decisions/032-invoices.md): the sale's **Tax invoice** when the seller is
 * registered for GST, its **Receipt** otherwise, and an **Adjustment note** for a refund of it.
 */
export const documentKinds = ["invoice", "receipt", "adjustment"] as const;
export type DocumentKind = (typeof documentKinds)[number];
/** One priced line of a document, in cents: a discount is negative; an adjustment's line is what was refunded. */
export type DocumentLine = { label: string; amountCents: number };

/**
 * Receipts, tax invoices and adjustment notes, as they were written: a row is inserted once, in the
 * transaction that marked its booking paid or recorded its refund, and never updated (only the
 * retention job deletes it, 5 years after `issuedAt`). It copies the seller and the event as they
 * were then and holds no buyer's name, phone, email, photo or date of birth: a tax invoice under
 * $1,000 needs no buyer's identity, and these outlive RETENTION_DAYS. A tax invoice of $1,000 or
 * more (and its adjustment note) is the exception: the ATO asks for the buyer's identity or ABN from
 * that amount, so it copies the buyer's name and email (a booking holds no ABN), kept with the
 * document as the tax record it is (issue 46).
 */
export const documents = sqliteTable(
  "documents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** `INV-000123`, from document_counter: consecutive in order of writing, never reused. */
    number: text("number").notNull(),
    kind: text("kind", { enum: documentKinds }).notNull(),
    // No foreign key: the document stands on its own for its 5 years, whatever becomes of the booking.
    bookingId: integer("booking_id").notNull(),
    /** The payment it documents (an adjustment: the payment refunded). */
    paymentIntentId: text("payment_intent_id").notNull(),
    /** An adjustment note's refund at the provider, and the number of the invoice or receipt it adjusts. */
    refundId: text("refund_id"),
    relatesTo: text("relates_to"),
    issuedAt: integer("issued_at").notNull(),
    sellerName: text("seller_name").notNull(),
    sellerAbn: text("seller_abn").notNull(),
    sellerAddress: text("seller_address").notNull(),
    gstRegistered: integer("gst_registered", { mode: "boolean" }).notNull(),
    eventName: text("event_name").notNull(),
    eventStartsAt: integer("event_starts_at").notNull(),
    eventTimeZone: text("event_time_zone").notNull(),
    lines: text("lines", { mode: "json" }).$type<DocumentLine[]>().notNull(),
    totalCents: integer("total_cents").notNull(),
    gstCents: integer("gst_cents").notNull(),
    /** The buyer, on a tax invoice of BUYER_NAMED_FROM_CENTS or more (and its adjustment note) only. */
    buyerName: text("buyer_name"),
    buyerEmail: text("buyer_email"),
  },
  (t) => [
    uniqueIndex("documents_number").on(t.number),
    // One sale document per booking and one adjustment note per refunded payment, whoever races.
    uniqueIndex("documents_sale").on(t.bookingId).where(sql`kind <> 'adjustment'`),
    uniqueIndex("documents_adjustment").on(t.paymentIntentId).where(sql`kind = 'adjustment'`),
    index("documents_payment").on(t.paymentIntentId),
    // By when issued, with what the money report and the GST summary add up (issue 51).
    index("documents_issued_at").on(t.issuedAt, t.kind, t.gstCents),
  ],
);

export type Document = typeof documents.$inferSelect;

/**
 * An email's attachment as the outbox keeps it: bytes (`base64`), or made when sent: a document's PDF
 * (`document`, by id) or the PNG of a QR code of `qr`'s text (a ticket's, so an email can be queued in
 * the synchronous transaction that issues the ticket).
 */
export type StoredAttachment =
  | { filename: string; contentType: string; cid?: string; base64: string }
  | { filename: string; contentType: string; cid?: string; document: number }
  | { filename: string; contentType: string; cid?: string; qr: string }
  | { filename: string; contentType: string; cid?: string; badge: "apple" | "google" };

/** `apns` and `google_wallet`: a wallet pass changed (issue 50): a push to an Apple device, a PATCH to Google. */
export const outboxChannels = ["sms", "email", "apns", "google_wallet"] as const;
/** `cancelled`: still waiting when its person was erased (docs/decisions/039), so never sent. */
export const outboxStatuses = ["pending", "sent", "failed", "suppressed", "cancelled"] as const;

/**
 * Every message the app sends, texts and emails alike, goes through this one outbox (decision 031):
 * queued inside the transaction that makes it true, sent once per `dedupeKey`. `to` is the phone
 * (E.164) of a text or the address of an email; `body` is the text, or an email's plain-text part.
 * Written inside the transaction that caused it, then sent, so a crash or a provider failure loses
 * nothing, and `dedupeKey` stops a second copy.
 */
export const outboxMessages = sqliteTable(
  "outbox_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    dedupeKey: text("dedupe_key").notNull(),
    channel: text("channel", { enum: outboxChannels }).notNull().default("sms"),
    to: text("to").notNull(),
    body: text("body").notNull(),
    // Email only: the subject, the HTML part and the attachments (JSON, StoredAttachment[]).
    subject: text("subject"),
    html: text("html"),
    attachments: text("attachments", { mode: "json" }).$type<StoredAttachment[]>(),
    // Email only: extra headers (a marketing email's List-Unsubscribe and List-Unsubscribe-Post).
    headers: text("headers", { mode: "json" }).$type<Record<string, string>>(),
    // The booking an email is about, so an address that cannot be delivered to is noted on it.
    bookingId: integer("booking_id").references(() => bookings.id),
    // `suppressed`: a marketing message whose address had no consent when its turn came (issue 36).
    status: text("status", { enum: outboxStatuses }).notNull().default("pending"),
    // `marketing` (an announcement) is sent only to an address that still consents at that moment,
    // and at most INVITE_RATE_PER_MINUTE a minute; everything else is `transactional`.
    purpose: text("purpose", { enum: ["transactional", "marketing"] })
      .notNull()
      .default("transactional"),
    // The announcement (db/marketing-schema.ts) a marketing message belongs to: its progress.
    announcementId: integer("announcement_id"),
    attempts: integer("attempts").notNull().default(0),
    // After a failed send the next try waits (exponential backoff), so an SMS outage of hours
    // delays messages instead of using up their tries in minutes.
    nextAttemptAt: integer("next_attempt_at").notNull().default(0),
    lastError: text("last_error"),
    providerId: text("provider_id"),
    createdAt: createdAt(),
    sentAt: integer("sent_at"),
  },
  (t) => [
    uniqueIndex("outbox_messages_dedupe").on(t.dedupeKey),
    index("outbox_messages_status").on(t.status),
    // An announcement's progress, and whom it reached on each channel (the invitations report).
    index("outbox_messages_announcement").on(t.announcementId, t.status, t.channel),
  ],
);

/**
 * `ended`: the event was cancelled; `closed`: sales closed at the start with the person still in line
 * (they were texted, and the organiser's list keeps them as **Closed at the start**).
 */
export const waitlistStatuses = ["waiting", "offered", "booked", "left", "lapsed", "ended", "closed"] as const;

/**
 * People waiting for a seat of their gender (or any seat of an unbalanced event). Their place is the
 * order of `id`. `offered` while an offer is out; `lapsed` when an offer ran out unused; `ended` when
 * the event started or was cancelled. A phone waits at most once per event at a time.
 */
export const waitlistEntries = sqliteTable(
  "waitlist_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id),
    phone: text("phone").notNull(),
    gender: text("gender", { enum: personGenders }).notNull(),
    name: text("name").notNull(),
    status: text("status", { enum: waitlistStatuses }).notNull().default("waiting"),
    createdAt: createdAt(),
  },
  (t) => [
    index("waitlist_entries_event_status").on(t.eventId, t.status),
    uniqueIndex("waitlist_entries_one_per_phone")
      .on(t.eventId, t.phone)
      .where(sql`${t.status} in ('waiting', 'offered')`),
  ],
);

export const waitlistOfferStatuses = ["open", "claimed", "booked", "expired", "withdrawn"] as const;

/**
 * A freed seat kept for the first person waiting, until `expiresAt`. `open` and `claimed` offers
 * count against the seats of their gender (nobody else can take the seat); `booked` hands the seat
 * to the booking it became, which then counts as any hold does.
 */
export const waitlistOffers = sqliteTable(
  "waitlist_offers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    entryId: integer("entry_id")
      .notNull()
      .references(() => waitlistEntries.id),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id),
    phone: text("phone").notNull(),
    gender: text("gender", { enum: personGenders }).notNull(),
    status: text("status", { enum: waitlistOfferStatuses }).notNull().default("open"),
    expiresAt: integer("expires_at").notNull(),
    bookingId: integer("booking_id").references(() => bookings.id),
    claimedAt: integer("claimed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("waitlist_offers_event_status").on(t.eventId, t.status),
    uniqueIndex("waitlist_offers_one_per_entry").on(t.entryId),
  ],
);

export type Event = typeof events.$inferSelect;
export type NewEvent = typeof events.$inferInsert;
export type User = typeof users.$inferSelect;
export type Booking = typeof bookings.$inferSelect;
export type CheckoutSession = typeof checkoutSessions.$inferSelect;
export type RefundClaim = typeof refundClaims.$inferSelect;
export type Feedback = typeof feedback.$inferSelect;
export type OutboxMessage = typeof outboxMessages.$inferSelect;
export type WaitlistEntry = typeof waitlistEntries.$inferSelect;
export type WaitlistOffer = typeof waitlistOffers.$inferSelect;
export type PromoCode = typeof promoCodes.$inferSelect;
