import { guarded } from "../../lib/admin-session.ts";
import { api, send } from "../../lib/api.ts";

// Nights short of numbers (issue 52 part 3, docs/decisions/059-short-of-numbers.md): the desk's two
// actions, and the words for what is short.

export type Shortfall = { side: "female" | "male" | "total"; needed: number; booked: number };

const SIDE_WORDS: Record<Shortfall["side"], [string, string]> = {
  female: ["woman", "women"],
  male: ["man", "men"],
  total: ["person", "people"],
};

/** `4 of 6 women, 3 of 6 men`: what the night has of what it needs, side by side. */
export const shortfallWords = (short: readonly Shortfall[]): string =>
  short.map((s) => `${s.booked} of ${s.needed} ${SIDE_WORDS[s.side][s.needed === 1 ? 0 : 1]}`).join(", ");

/** The nights its guests may move to: upcoming, later than now, the same format, not itself. */
export function moveTargets<E extends { id: number; status: string; startsAt: string; format?: string }>(
  from: E,
  events: readonly E[],
  now = Date.now(),
): E[] {
  const format = from.format ?? "women_men";
  return events.filter(
    (e) =>
      e.id !== from.id &&
      e.status === "upcoming" &&
      Date.parse(e.startsAt) > now &&
      (e.format ?? "women_men") === format,
  );
}

/** **Cancel the night**: every guest chooses a refund or credit within 72 hours. */
export const cancelTheNight = (eventId: number) =>
  guarded(send(api["cancel-event"].$post({ json: { eventId, guestsChoose: true } })));

/** **Move to another night**: every guest is asked to keep a seat there, or take a refund or credit. */
export const moveGuests = (fromEventId: number, toEventId: number) =>
  guarded(send(api["move-event-guests"].$post({ json: { fromEventId, toEventId } })));
