import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { type Event, feedback } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { feedbackToken } from "../lib/capability.ts";
import { BadRequest, Conflict, NotFound } from "../lib/errors.ts";
import {
  assertLink,
  assertStarted,
  type Ctx,
  type FeedbackValue,
  type Partner,
  participantOf,
  partnersOf,
  type Seat,
} from "./feedback.ts";

// Ratings: the partners page and its taps, and the paper cards staff type in. When ratings open and
// close, and whose partners may be rated, is set out at the top of feedback.ts.

const MAX_CLOCK_AHEAD_MS = 24 * 60 * 60 * 1000;

function assertRatingOpen(db: DbOrTx, eventId: number): Event {
  const event = assertStarted(db, eventId);
  if (event.resultsReleasedAt !== null) {
    throw Conflict("the results are out, so ratings are closed", "ratings_closed");
  }
  return event;
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
