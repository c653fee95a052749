import { and, asc, desc, eq, inArray, isNotNull, lt, ne, sql } from "drizzle-orm";
import { resultsAtOf } from "../../common/results-time.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { contactShares, type ShareChoice, shareDefaults } from "../../db/rounds-schema.ts";
import {
  bookings,
  type Event,
  events,
  type FeedbackChoice,
  feedback,
  type PersonGender,
  users,
  type WantsToMeet,
} from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { type FeedbackPage, feedbackToken, isValidFeedbackToken } from "../lib/capability.ts";
import { BadRequest, Conflict, Forbidden, NotFound } from "../lib/errors.ts";
import { metInStartedRounds } from "./rounds.ts";

/**
 * Partner feedback after an event. Every call is made with a capability link (the `t` texted at
 * start and end), so the token is checked before anything that could reveal who attended. Each
 * token opens its own page only (docs/decisions/011): the start link's lists partners and saves
 * taps, the end link's reads the report, which holds phone numbers.
 *
 * Decisions made here (the calls' shapes in docs/api.md do not settle them):
 * - Ratings are taken from the start until the results are released (docs/decisions/021-results.md);
 *   before the start nobody has met anyone, so saving (and listing partners) answers 409, and after
 *   the release saving answers 409 `ratings_closed` (the partners page still lists who they met).
 *   The report answers 409 `results_not_yet` until the release, with the time it is due: before
 *   then it would show likes as they happen, and miss what others rate later.
 * - The caller must hold a paid, unrefunded seat (403 otherwise); the rated partner must be one of
 *   the caller's partners (404 otherwise, as for a refunded or unknown person). Partners are, in this
 *   order of precedence (docs/decisions/019-running-the-night.md): with a rounds plan, the paid
 *   attendees met in the rounds started so far, newest first; else, once anyone was checked in at
 *   the door, the checked-in attendees of the other gender; else every paid attendee of the other
 *   gender. So a no-show is nobody's partner, and has no partners, once the door or the rounds say
 *   who came.
 * - A `clientTs` more than a day ahead of the server's clock is refused (400): a phone with a clock
 *   set far ahead would otherwise make one tap impossible to change.
 */

type Ctx = { db: Db; env: Pick<Env, "SESSION_SECRET"> };

/** Date (`like`), Friend (`friend`, only where the event offers it) or No (`dislike`). */
export type FeedbackValue = FeedbackChoice;
export type Partner = { id: number; username: string; image_name: string };
/**
 * A person in the report: their contact details only as they chose to share them with this guest
 * (`phone`, `email` or `instagram`), or `sharedNothing` where they chose **Nothing**; `myShare` (and
 * `myInstagram`) on a match: what this guest lets them see.
 */
export type ReportEntry = Partner & {
  phone?: string;
  email?: string;
  instagram?: string;
  sharedNothing?: true;
  myShare?: ShareChoice;
  myInstagram?: string | null;
};
export type FeedbackReport = {
  mutual: ReportEntry[];
  friends: ReportEntry[];
  likedme: ReportEntry[];
  iliked: ReportEntry[];
  offersFriend: boolean;
};

const MAX_CLOCK_AHEAD_MS = 24 * 60 * 60 * 1000;

export function assertLink(ctx: Ctx, page: FeedbackPage, userId: number, eventId: number, token: unknown) {
  if (!isValidFeedbackToken(ctx.env, page, userId, eventId, token)) {
    throw Forbidden("this feedback link is not valid", "invalid_link");
  }
}

type Seat = { gender: PersonGender };

/** The caller's paid seat at the event, or 403. */
export function participantOf(db: DbOrTx, userId: number, eventId: number): Seat {
  const row = db
    .select({ gender: users.gender })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.userId, userId), eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .get();
  if (!row) throw Forbidden("you are not a participant of this event", "not_a_participant");
  return row;
}

function eventOf(db: DbOrTx, eventId: number): Event {
  const event = db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) throw NotFound("no such event");
  return event;
}

/** Partners can be listed once the night has started, and still after the ratings closed. */
function assertStarted(db: DbOrTx, eventId: number): Event {
  const event = eventOf(db, eventId);
  if (event.status === "upcoming") throw Conflict("feedback opens when the event starts", "feedback_not_open");
  if (event.status === "cancelled") throw Conflict("this event was cancelled", "event_cancelled");
  return event;
}

function assertRatingOpen(db: DbOrTx, eventId: number): Event {
  const event = assertStarted(db, eventId);
  if (event.resultsReleasedAt !== null) {
    throw Conflict("the results are out, so ratings are closed", "ratings_closed");
  }
  return event;
}

const partnerColumns = { id: users.id, username: users.name, image_name: users.thumbName };

/**
 * The other paid participants this guest could have met, by name: of the other gender at a Women
 * meet men night, anyone else at the others; `checkedIn` keeps those who came only.
 */
function paidOfOtherGender(db: DbOrTx, userId: number, eventId: number, seat: Seat, checkedIn = false) {
  const event = db.select({ format: events.format }).from(events).where(eq(events.id, eventId)).get();
  const oneSide = event?.format !== "one_group" && event?.format !== "mixed";
  const rows = db
    .select({
      ...partnerColumns,
      phone: users.phone,
      email: users.email,
      gender: users.gender,
      wants: users.wantsToMeet,
    })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(
      and(
        eq(bookings.eventId, eventId),
        eq(bookings.status, "paid"),
        ne(users.id, userId),
        oneSide ? ne(users.gender, seat.gender) : undefined,
        checkedIn ? isNotNull(bookings.checkedInAt) : undefined,
      ),
    )
    .orderBy(asc(sql`${users.name} collate nocase`), asc(users.id))
    .all();
  // At Mixed, only those each would like to meet (the planner's rule); the answers stay in here.
  const me = event?.format === "mixed" ? mixedSelf(db, userId) : null;
  return rows
    .filter((r) => !me || wantEachOther(me, { gender: r.gender, wants: r.wants }))
    .map(({ gender: _, wants: __, ...r }) => r);
}

type MixedAnswers = { gender: PersonGender; wants: WantsToMeet | null };

const mixedSelf = (db: DbOrTx, userId: number): MixedAnswers =>
  db.select({ gender: users.gender, wants: users.wantsToMeet }).from(users).where(eq(users.id, userId)).get() ?? {
    gender: "unasked",
    wants: null,
  };

const WANTED = { women: "female", men: "male" } as const;
const wants = (x: MixedAnswers, y: MixedAnswers) =>
  x.wants === "everyone" || (x.wants !== null && WANTED[x.wants] === y.gender);
/** group-plan.ts's wantToMeet over stored answers: each would like to meet the other. */
const wantEachOther = (x: MixedAnswers, y: MixedAnswers) => wants(x, y) && wants(y, x);

const anyoneCheckedIn = (db: DbOrTx, eventId: number) =>
  db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.eventId, eventId), isNotNull(bookings.checkedInAt)))
    .limit(1)
    .get() !== undefined;

const checkedInHere = (db: DbOrTx, userId: number, eventId: number) =>
  db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.eventId, eventId), eq(bookings.userId, userId), isNotNull(bookings.checkedInAt)))
    .get() !== undefined;

/** Whom the caller may see and rate: the partner rule at the top of this file. */
export function partnersOf(db: DbOrTx, userId: number, eventId: number, seat: Seat, now: number): Partner[] {
  const met = metInStartedRounds(db, eventId, userId, now);
  if (met === null) {
    const doorUsed = anyoneCheckedIn(db, eventId);
    // Once the door says who came, a guest it never checked in met nobody, as in the rounds.
    if (doorUsed && !checkedInHere(db, userId, eventId)) return [];
    return paidOfOtherGender(db, userId, eventId, seat, doorUsed).map(({ phone: _, email: __, ...p }) => p);
  }
  if (met.length === 0) return [];
  const rows = db
    .select(partnerColumns)
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid"), inArray(users.id, met)))
    .all();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return met.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The rating page: the caller's partners with the choice the server holds for each (`myChoice`, so a
 * phone whose tap was refused shows what stands), and once the results are out, when ratings closed
 * (with the venue's zone) and the caller's own report link: the page then says so and links to the
 * matches, which the results text links to as well.
 */
export function getParticipants(
  ctx: { db: Db; env: Pick<Env, "SESSION_SECRET" | "PUBLIC_BASE_URL"> },
  input: { userId: number; eventId: number; token: unknown },
  now: number,
): {
  participants: (Partner & { myChoice: FeedbackValue | null })[];
  /** The event offers Friend beside Date and No. */
  offersFriend: boolean;
  ratingsClosedAt: string | null;
  timeZone: string;
  reportPath: string | null;
} {
  assertLink(ctx, "start", input.userId, input.eventId, input.token);
  const event = assertStarted(ctx.db, input.eventId);
  const seat = participantOf(ctx.db, input.userId, input.eventId);
  const mine = new Map(
    ctx.db
      .select({ to: feedback.toUserId, value: feedback.value })
      .from(feedback)
      .where(and(eq(feedback.eventId, input.eventId), eq(feedback.fromUserId, input.userId)))
      .all()
      .map((r) => [r.to, r.value]),
  );
  const released = event.resultsReleasedAt;
  return {
    participants: partnersOf(ctx.db, input.userId, input.eventId, seat, now).map((p) => ({
      ...p,
      myChoice: mine.get(p.id) ?? null,
    })),
    offersFriend: event.offersFriend,
    ratingsClosedAt: released === null ? null : new Date(released).toISOString(),
    timeZone: event.timeZone,
    reportPath:
      released === null
        ? null
        : `/EventFeedback?par1=${input.eventId}&par2=${input.userId}&t=${feedbackToken(ctx.env, "report", input.userId, input.eventId)}`,
  };
}

export type SaveFeedbackInput = {
  fromUserId: number;
  toUserId: number;
  eventId: number;
  value: FeedbackValue;
  token: unknown;
  clientTs?: number;
};

/**
 * Stores a tap. An upsert per (from, to, event) that only moves forward in the phone's time, so a
 * replay or a tap that arrives after a newer one changes nothing. Returns what is stored now.
 */
export function saveFeedback(
  ctx: Ctx,
  input: SaveFeedbackInput,
  now: number,
): { feedback: FeedbackValue; clientTs: number } {
  assertLink(ctx, "start", input.fromUserId, input.eventId, input.token);
  const clientTs = input.clientTs ?? now;
  if (clientTs > now + MAX_CLOCK_AHEAD_MS) throw BadRequest("clientTs is too far in the future");
  return storeRating(ctx.db, { ...input, clientTs }, now, (db) => participantOf(db, input.fromUserId, input.eventId));
}

export type AdminRatingInput = { eventId: number; fromUserId: number; toUserId: number; value: FeedbackValue };

/** Who made a rating: the guest on their own phone, or staff typing in a paper card. */
export type RatedBy = "guest" | "staff";

/**
 * A paper scorecard typed in by the organiser or a host. It fills only a pair the guest has not
 * rated themselves, and may correct an earlier card; a pair the guest rated on their phone is
 * refused with 409 `rated_by_guest`, whatever the times (docs/decisions/021-results.md): staff
 * never speak for a guest who has spoken. A person without a paid seat is a 404 here (the organiser
 * picked someone who is not a participant).
 */
export function adminSaveFeedback(
  db: Db,
  input: AdminRatingInput,
  now: number,
): { feedback: FeedbackValue; clientTs: number } {
  return storeRating(db, { ...input, clientTs: now, ratedBy: "staff" }, now, (tx) => {
    try {
      return participantOf(tx, input.fromUserId, input.eventId);
    } catch {
      throw NotFound("no such participant at this event");
    }
  });
}

function storeRating(
  db: Db,
  input: AdminRatingInput & { clientTs: number; ratedBy?: RatedBy },
  now: number,
  seatOf: (tx: DbOrTx) => Seat,
): { feedback: FeedbackValue; clientTs: number } {
  if (input.fromUserId === input.toUserId) throw BadRequest("you cannot rate yourself");
  const ratedBy = input.ratedBy ?? "guest";
  return db.transaction(
    (tx) => {
      const event = assertRatingOpen(tx, input.eventId);
      if (input.value === "friend" && !event.offersFriend) {
        throw BadRequest("This event offers Date or No, not Friend.");
      }
      const seat = seatOf(tx);
      const partners = partnersOf(tx, input.fromUserId, input.eventId, seat, now);
      if (!partners.some((p) => p.id === input.toUserId)) throw NotFound("no such partner at this event");
      const pair = and(
        eq(feedback.fromUserId, input.fromUserId),
        eq(feedback.toUserId, input.toUserId),
        eq(feedback.eventId, input.eventId),
      );
      if (ratedBy === "staff") {
        const existing = tx.select({ ratedBy: feedback.ratedBy }).from(feedback).where(pair).get();
        if (existing?.ratedBy === "guest") {
          throw Conflict("the guest rated this person on their phone; their choice stands", "rated_by_guest");
        }
      }

      tx.insert(feedback)
        .values({
          fromUserId: input.fromUserId,
          toUserId: input.toUserId,
          eventId: input.eventId,
          value: input.value,
          clientTs: input.clientTs,
          updatedAt: now,
          ratedBy,
        })
        .onConflictDoUpdate({
          target: [feedback.fromUserId, feedback.toUserId, feedback.eventId],
          set: {
            value: sql`excluded.value`,
            clientTs: sql`excluded.client_ts`,
            updatedAt: sql`excluded.updated_at`,
            ratedBy: sql`excluded.rated_by`,
          },
          // Strictly newer only: an equal clientTs is the same tap replayed. A guest's own tap
          // replaces a staff card whatever its time: the card only stood in for the guest.
          setWhere:
            ratedBy === "guest"
              ? sql`excluded.client_ts > ${feedback.clientTs} or ${feedback.ratedBy} = 'staff'`
              : sql`excluded.client_ts > ${feedback.clientTs}`,
        })
        .run();
      const stored = tx
        .select({ feedback: feedback.value, clientTs: feedback.clientTs })
        .from(feedback)
        .where(pair)
        .get();
      if (!stored) throw new Error("feedback row vanished inside its transaction");
      return stored;
    },
    { behavior: "immediate" },
  );
}

/** A Date or a Friend: the choices that say "I'd like to see you again". */
const warm = (value: FeedbackValue | undefined) => value === "like" || value === "friend";

/** The report's group of a pair, from this guest's choice and the other's. */
export function reportGroup(
  mine: FeedbackValue | undefined,
  theirs: FeedbackValue | undefined,
): "mutual" | "friends" | "likedme" | "iliked" | null {
  if (mine === "like" && theirs === "like") return "mutual";
  if (warm(mine) && warm(theirs)) return "friends";
  if (warm(theirs)) return "likedme";
  if (warm(mine)) return "iliked";
  return null;
}

export type ShareSetting = { share: ShareChoice; instagram: string | null };

/**
 * The guest's last choice made at another night before `before` (by their number), or Mobile: what a
 * night's default is set to when its results are released.
 */
function lastChoiceBefore(db: DbOrTx, phone: string, eventId: number, before: number): ShareSetting {
  const newest = db
    .select({ share: contactShares.share, instagram: contactShares.instagram })
    .from(contactShares)
    .where(and(eq(contactShares.phone, phone), ne(contactShares.eventId, eventId), lt(contactShares.updatedAt, before)))
    .orderBy(desc(contactShares.updatedAt), desc(contactShares.id))
    .limit(1)
    .get();
  return newest ?? { share: "mobile", instagram: null };
}

/**
 * Sets, once, each paid guest's default for the night's matches: called in the transaction that
 * releases the results (docs/decisions/040-sharing-defaults-and-stream-rights.md). A default already
 * set is kept.
 */
export function setShareDefaults(tx: DbOrTx, eventId: number, releasedAt: number): void {
  const guests = tx
    .select({ userId: users.id, phone: users.phone })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .all();
  for (const guest of guests) {
    const setting = lastChoiceBefore(tx, guest.phone, eventId, releasedAt);
    tx.insert(shareDefaults)
      .values({ eventId, userId: guest.userId, ...setting })
      .onConflictDoNothing()
      .run();
  }
}

/**
 * The default for every match of a night the guest has not chosen for: the one set when the results
 * were released; for a night released without one (before defaults were stored), the same rule read
 * now. A choice for one match never changes what another match sees.
 */
export function defaultShareOf(
  db: DbOrTx,
  guest: { userId: number; phone: string },
  night: Pick<Event, "id" | "resultsReleasedAt">,
): ShareSetting {
  const fixed = db
    .select({ share: shareDefaults.share, instagram: shareDefaults.instagram })
    .from(shareDefaults)
    .where(and(eq(shareDefaults.eventId, night.id), eq(shareDefaults.userId, guest.userId)))
    .get();
  if (fixed) return fixed;
  if (night.resultsReleasedAt === null) return { share: "mobile", instagram: null };
  return lastChoiceBefore(db, guest.phone, night.id, night.resultsReleasedAt);
}

/** What `fromUserId` lets `toUserId` see at this night: their choice for that match, else the night's default. */
function shareToward(
  db: DbOrTx,
  night: Pick<Event, "id" | "resultsReleasedAt">,
  fromUserId: number,
  toUserId: number,
  phone: string,
): ShareSetting {
  const chosen = db
    .select({ share: contactShares.share, instagram: contactShares.instagram })
    .from(contactShares)
    .where(
      and(
        eq(contactShares.eventId, night.id),
        eq(contactShares.fromUserId, fromUserId),
        eq(contactShares.toUserId, toUserId),
      ),
    )
    .get();
  return chosen ?? defaultShareOf(db, { userId: fromUserId, phone }, night);
}

/** The other's details as they chose to share them, when this guest may see any at all. */
function contactOf(
  setting: ShareSetting,
  person: { phone: string; email: string },
): Pick<ReportEntry, "phone" | "email" | "instagram" | "sharedNothing"> {
  switch (setting.share) {
    case "mobile":
      return { phone: person.phone };
    case "email":
      return { email: person.email };
    case "instagram":
      return setting.instagram ? { instagram: setting.instagram } : { sharedNothing: true };
    case "nothing":
      return { sharedNothing: true };
  }
}

function openReport(ctx: Ctx, input: { userId: number; eventId: number; token: unknown }): Event {
  assertLink(ctx, "report", input.userId, input.eventId, input.token);
  const event = eventOf(ctx.db, input.eventId);
  if (event.status === "cancelled") throw Conflict("this event was cancelled", "event_cancelled");
  if (event.resultsReleasedAt === null) {
    // The page says when, on the venue's clock: it needs the zone as well as the instant.
    throw Conflict("the results are not out yet", "results_not_yet", {
      resultsAt: new Date(resultsAtOf(event)).toISOString(),
      timeZone: event.timeZone,
    });
  }
  return event;
}

/** Both choices of every pair that includes this guest: id → value, each way. */
function choicesAround(db: DbOrTx, eventId: number, userId: number) {
  const rows = db
    .select({ from: feedback.fromUserId, to: feedback.toUserId, value: feedback.value })
    .from(feedback)
    .where(
      and(eq(feedback.eventId, eventId), sql`(${feedback.fromUserId} = ${userId} or ${feedback.toUserId} = ${userId})`),
    )
    .all();
  const mine = new Map(rows.filter((r) => r.from === userId).map((r) => [r.to, r.value]));
  const theirs = new Map(rows.filter((r) => r.to === userId).map((r) => [r.from, r.value]));
  return { mine, theirs };
}

/**
 * The report: mutual matches (Date and Date), friend matches (Date or Friend both ways, where the
 * event offers Friend), who liked this guest, whom they liked. Someone's contact details show only
 * where they chose Date or Friend for this guest, this guest did not say No to them, and they did not
 * choose **Nothing** for them (issue 37): never to someone they did not want to hear from.
 */
export function getFeedbackReport(
  ctx: Ctx,
  input: { userId: number; eventId: number; token: unknown },
): FeedbackReport {
  const event = openReport(ctx, input);
  const seat = participantOf(ctx.db, input.userId, input.eventId);
  // Every paid attendee they could have met, wider than the partner rule: a like saved before the
  // door or a plan narrowed the partners still counts.
  const partners = paidOfOtherGender(ctx.db, input.userId, input.eventId, seat);
  const { mine, theirs } = choicesAround(ctx.db, input.eventId, input.userId);
  const me = ctx.db.select({ phone: users.phone }).from(users).where(eq(users.id, input.userId)).get()!;
  const myDefault = defaultShareOf(ctx.db, { userId: input.userId, phone: me.phone }, event);

  const report: FeedbackReport = { mutual: [], friends: [], likedme: [], iliked: [], offersFriend: event.offersFriend };
  for (const { phone, email, ...partner } of partners) {
    const group = reportGroup(mine.get(partner.id), theirs.get(partner.id));
    if (group === null) continue;
    const mayContact = warm(theirs.get(partner.id)) && mine.get(partner.id) !== "dislike";
    const contact = mayContact
      ? contactOf(shareToward(ctx.db, event, partner.id, input.userId, phone), { phone, email })
      : {};
    const entry: ReportEntry = { ...partner, ...contact };
    if (group === "mutual" || group === "friends") {
      const myShare = ctx.db
        .select({ share: contactShares.share, instagram: contactShares.instagram })
        .from(contactShares)
        .where(
          and(
            eq(contactShares.eventId, input.eventId),
            eq(contactShares.fromUserId, input.userId),
            eq(contactShares.toUserId, partner.id),
          ),
        )
        .get();
      const setting = myShare ?? myDefault;
      entry.myShare = setting.share;
      entry.myInstagram = setting.instagram;
    }
    report[group].push(entry);
  }
  return report;
}

const INSTAGRAM_HANDLE = /^@?([A-Za-z0-9._]{1,30})$/;

/**
 * A guest's choice of what one match may see: **Mobile**, **Email**, **Instagram** (with the handle)
 * or **Nothing**. Only for a match (mutual or friend), through the report link, once the results are
 * out; it takes effect at once (the other's report reads it on every load).
 */
export function shareContact(
  ctx: Ctx,
  input: { userId: number; eventId: number; token: unknown; partnerId: number; share: ShareChoice; instagram?: string },
  now: number,
): ShareSetting {
  openReport(ctx, input);
  participantOf(ctx.db, input.userId, input.eventId);
  let instagram: string | null = null;
  if (input.share === "instagram") {
    const handle = INSTAGRAM_HANDLE.exec((input.instagram ?? "").trim());
    if (!handle)
      throw BadRequest("Type your Instagram handle, like @yourname (letters, numbers, dots and underscores).");
    instagram = handle[1]!;
  }
  return ctx.db.transaction(
    (tx) => {
      const { mine, theirs } = choicesAround(tx, input.eventId, input.userId);
      const group = reportGroup(mine.get(input.partnerId), theirs.get(input.partnerId));
      if (group !== "mutual" && group !== "friends") throw NotFound("no such match at this event");
      const me = tx.select({ phone: users.phone }).from(users).where(eq(users.id, input.userId)).get()!;
      tx.insert(contactShares)
        .values({
          eventId: input.eventId,
          fromUserId: input.userId,
          toUserId: input.partnerId,
          phone: me.phone,
          share: input.share,
          instagram,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [contactShares.eventId, contactShares.fromUserId, contactShares.toUserId],
          set: { share: input.share, instagram, updatedAt: now },
        })
        .run();
      return { share: input.share, instagram };
    },
    { behavior: "immediate" },
  );
}
