import { and, eq } from "drizzle-orm";
import { AUTO_END_AFTER_MS, plannedEnd } from "../../common/results-time.ts";
import type { Db } from "../../db/client.ts";
import { preparedPerDb } from "../../db/prepared.ts";
import { type Event, events } from "../../db/schema.ts";
import { closeLineNow } from "../booking/waitlist-offers.ts";
import type { Env } from "../env.ts";
import { participantFeedbackLink } from "../lib/capability.ts";
import { Conflict, DomainError, NotFound } from "../lib/errors.ts";
import type { Logger } from "../lib/log.ts";
import { textPaidAttendees } from "../messaging/attendee-texts.ts";
import { deliverBatch } from "../messaging/outbox.ts";
import { nightEndedText, nightStartedText, noShowText } from "../messaging/templates/night.ts";
import { recordAttendance, whoCame } from "../night/attendance.ts";
import type { SmsProvider } from "../providers/sms/types.ts";

type Deps = { db: Db; env: Env; sms: SmsProvider; log: Logger; now: () => number };

type Transition = {
  from: Event["status"];
  to: Event["status"];
  key: "start" | "end";
  /** `came`: whether this guest came (attendance.ts); only the end's text depends on it. */
  message: (env: Env, event: Event, userId: number, now: number, came: boolean) => string;
};

const START: Transition = {
  from: "upcoming",
  to: "started",
  key: "start",
  message: (env, event, userId) =>
    nightStartedText({ event, ratingUrl: participantFeedbackLink(env, userId, event.id) }),
};

/**
 * The rating link again (the start link) to whoever came; a paid guest who did not come is not sent
 * one (api/messaging/templates/night.ts says what each gets, and why).
 */
const END: Transition = {
  from: "started",
  to: "ended",
  key: "end",
  message: (env, event, userId, now, came) =>
    came
      ? nightEndedText({ event, now, ratingUrl: participantFeedbackLink(env, userId, event.id) })
      : noShowText({ event, supportEmail: env.SUPPORT_EMAIL }),
};

export type TransitionResult = { sent: number; failed: number };

/**
 * Moves the event one step along upcoming → started → ended and texts every paid participant.
 * The status change and the queued messages commit together, so either everyone is due a text or
 * nothing changed; sending happens after the commit, one message at a time, and a message that
 * fails stays queued for the server's retry loop instead of taking the others down with it.
 */
async function transition(deps: Deps, eventId: number, step: Transition): Promise<TransitionResult> {
  const prefix = `${step.key}:${eventId}:`;
  const now = deps.now();
  deps.db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, eventId)).get();
      if (!event) throw NotFound("no such event");
      if (event.status !== step.from) {
        throw Conflict(`the event is ${event.status}; it can only be ${step.key}ed when ${step.from}`, "wrong_state");
      }
      // Who came, as the night stood before this step (the start has nobody yet: everyone is texted alike).
      const came = step.to === "ended" ? whoCame(tx, eventId, now) : null;
      // …and written down for the reports, by the same rule at the same moment.
      if (step.to === "ended") recordAttendance(tx, eventId, now);
      tx.update(events)
        .set({ status: step.to, ...(step.to === "started" ? { startedAt: now } : { endedAt: now }) })
        .where(and(eq(events.id, eventId), eq(events.status, step.from)))
        .run();
      textPaidAttendees(tx, eventId, {
        dedupeKey: (attendee) => `${prefix}${attendee.userId}`,
        body: (attendee) => step.message(deps.env, event, attendee.userId, now, came?.has(attendee.userId) ?? true),
      });
    },
    { behavior: "immediate" },
  );
  // Sales closed: whoever is still on the waitlist hears so now (docs/decisions/015-balanced-rooms-and-waitlist.md).
  if (step.key === "start") closeLineNow(deps, eventId);
  return deliverBatch(deps, prefix);
}

export const startEvent = (deps: Deps, eventId: number) => transition(deps, eventId, START);
export const endEvent = (deps: Deps, eventId: number) => transition(deps, eventId, END);

/** Nights under way (asked every tick, so built once: db/prepared.ts). */
const startedEvents = preparedPerDb((db) => db.select().from(events).where(eq(events.status, "started")).prepare());

/**
 * Ends every night still running AUTO_END_AFTER_MS after its planned end, with End Event's texts: a
 * night the organiser forgot to end still closes, and its ratings and results follow the usual path.
 * A night that never started is left alone: nobody met anyone, and the organiser cancels or starts it.
 */
export async function endOverdueEvents(deps: Deps, now: number): Promise<number> {
  const overdue = startedEvents(deps.db)
    .all()
    .filter((event) => plannedEnd(event) + AUTO_END_AFTER_MS <= now);
  let ended = 0;
  for (const event of overdue) {
    try {
      await endEvent(deps, event.id);
      ended++;
      deps.log("info", "event ended by the scheduler", { eventId: event.id });
    } catch (error) {
      // Ended by the organiser between the query and here: nothing left to do.
      if (!(error instanceof DomainError && error.code === "wrong_state")) throw error;
    }
  }
  return ended;
}
