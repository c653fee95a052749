import type { Db } from "../../db/client.ts";
import type { Event } from "../../db/schema.ts";

/** The database or a transaction on it. */
type Q = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

// The waitlist does not exist yet: the waitlist issue replaces both functions below with the real
// ones (its own tables), and nothing that calls them needs to change.

/** How many people wait for a seat at the event. Always 0 until the waitlist exists. */
export function waitlistLength(_db: Q, _eventId: number): number {
  return 0;
}

/**
 * Called inside cancel-event's transaction, after the status became `cancelled`: ends the event's
 * waitlist and queues one SMS per waiting person. Their dedupe keys should start with
 * `cancel:{eventId}:` (say `cancel:{eventId}:waitlist:{entryId}`), so cancel-event's delivery run
 * sends them with the attendees' texts. Does nothing until the waitlist exists.
 */
export function endWaitlist(_tx: Q, _event: Event): void {}
