import { and, eq, isNull, sql } from "drizzle-orm";
import { hasMinimum, minimumByOf, shortfall } from "../../common/minimum-numbers.ts";
import type { DbOrTx } from "../../db/client.ts";
import { preparedPerDb } from "../../db/prepared.ts";
import { bookings, type Event, events, users } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { deliverPending, enqueueEmail, enqueueSms } from "../messaging/outbox.ts";
import { senderOf } from "../messaging/templates/email-frame.ts";
import { type Short, shortOfNumbersEmail, shortOfNumbersText } from "../messaging/templates/short-of-numbers.ts";
import { recordActivity } from "./activity.ts";

// Go ahead only with at least (issue 52 part 3, docs/decisions/059-short-of-numbers.md): at
// `minimumBy` the background job counts the night's paid bookings once; a night short of them is
// flagged (the desk's **Short of numbers**) and the organiser alone is told. Nothing goes to guests,
// and a night nobody acts on runs as booked.

/** Paid bookings by side: women, men, and everyone. */
export function paidBySide(db: DbOrTx, eventId: number): { total: number; male: number; female: number } {
  const count = (condition: ReturnType<typeof sql>) =>
    sql<number>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`;
  const row = db
    .select({
      total: sql<number>`count(*)`,
      male: count(sql`${users.gender} = 'male'`),
      female: count(sql`${users.gender} = 'female'`),
    })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .get();
  return { total: Number(row?.total ?? 0), male: Number(row?.male ?? 0), female: Number(row?.female ?? 0) };
}

export type ShortOfNumbers = { short: Short[]; at: string } | null;

/** The desk's **Short of numbers**: set only while the night is upcoming and the check found it short. */
export function shortOfNumbersOf(db: DbOrTx, event: Event): ShortOfNumbers {
  if (event.status !== "upcoming" || event.shortOfNumbersAt === null) return null;
  return {
    short: shortfall(event, paidBySide(db, event.id)),
    at: new Date(event.shortOfNumbersAt).toISOString(),
  };
}

export const shortOfNumbersKey = (eventId: number) => `short-of-numbers:${eventId}`;

type CheckDeps = Pick<AppDeps, "db" | "env" | "sms" | "log" | "now"> & Partial<Pick<AppDeps, "mail">>;

/** Upcoming nights not checked for their minimum yet (asked every tick, so built once: db/prepared.ts). */
const upcomingUnchecked = preparedPerDb((db) =>
  db
    .select()
    .from(events)
    .where(and(eq(events.status, "upcoming"), isNull(events.minimumCheckedAt)))
    .prepare(),
);

/**
 * The job `minimum-numbers`: every upcoming night with a minimum whose `minimumBy` has come and that
 * was not checked yet. Each is checked in its own IMMEDIATE transaction that sets
 * `minimumCheckedAt` first, so a second run or a second server finds it checked; the alerts carry
 * the event's key, so a crash between the commit and the send sends them once, on the outbox's retry.
 */
export async function checkMinimumNumbers(deps: CheckDeps, now: number): Promise<number> {
  const due = upcomingUnchecked(deps.db)
    .all()
    .filter((event) => hasMinimum(event) && minimumByOf(event) <= now);
  let flagged = 0;
  for (const candidate of due) {
    if (checkOne(deps, candidate.id, now)) flagged++;
  }
  if (flagged > 0)
    await deliverPending(deps, { dedupePrefix: "short-of-numbers:" }).catch((error: unknown) =>
      deps.log("warn", "short-of-numbers alert not sent yet; the outbox retries", {
        error: String(error).slice(0, 200),
      }),
    );
  return flagged;
}

function checkOne(deps: CheckDeps, eventId: number, now: number): Short[] | null {
  return deps.db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, eventId)).get();
      if (event?.status !== "upcoming" || event.minimumCheckedAt !== null) return null;
      const short = shortfall(event, paidBySide(tx, event.id));
      tx.update(events)
        .set({ minimumCheckedAt: now, ...(short.length > 0 ? { shortOfNumbersAt: now } : {}) })
        .where(eq(events.id, event.id))
        .run();
      if (short.length === 0) return null;
      const key = shortOfNumbersKey(event.id);
      if (deps.env.ORGANISER_PHONE)
        enqueueSms(tx, { dedupeKey: key, to: deps.env.ORGANISER_PHONE, body: shortOfNumbersText({ event, short }) });
      if (deps.env.ORGANISER_EMAIL)
        enqueueEmail(
          tx,
          {
            dedupeKey: `${key}:email`,
            to: deps.env.ORGANISER_EMAIL,
            ...shortOfNumbersEmail({ sender: senderOf(deps.env), event, short }),
          },
          deps.env,
        );
      recordActivity(
        tx,
        {
          actor: "system",
          actorKind: "system",
          action: "short of numbers",
          eventId: event.id,
          detail: short.map((s) => `${s.booked} of ${s.needed} ${s.side}`).join(", "),
        },
        now,
      );
      return short;
    },
    { behavior: "immediate" },
  );
}
