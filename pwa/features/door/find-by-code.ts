import { doorCode } from "./door-api.ts";

/** Codes are printed in capitals in groups; people type them in any case, with spaces or dashes. */
export const normaliseCode = (code: string) => code.replace(/[\s-]+/g, "").toUpperCase();

// The codes learnt so far, by `eventID:userID`: a second typed code at the same door asks again only
// about attendees not yet known. Kept in memory only: codes are not stored on the phone.
const known = new Map<string, string>();
const LOOKUPS_AT_ONCE = 6;

/**
 * The attendee among `userIDs` whose ticket carries the typed code, or null. The roster does not carry
 * codes, so each attendee's is asked of the server (a few at a time, stopping at the match): this
 * needs a connection, and throws `CallFailed` without one.
 */
export async function findByCode(
  eventID: number,
  userIDs: number[],
  typed: string,
  codeOf: (eventID: number, userID: number) => Promise<string | null> = doorCode,
): Promise<number | null> {
  const wanted = normaliseCode(typed);
  if (!wanted) return null;
  const key = (userID: number) => `${eventID}:${userID}`;
  const matches = (userID: number) => {
    const code = known.get(key(userID));
    return code !== undefined && normaliseCode(code) === wanted;
  };
  const already = userIDs.find(matches);
  if (already !== undefined) return already;

  const queue = userIDs.filter((id) => !known.has(key(id)));
  let found: number | null = null;
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined && found === null; id = queue.shift()) {
      // A booking without a code yet (its confirmation not sent) is asked again next time.
      const code = await codeOf(eventID, id);
      if (code !== null) known.set(key(id), code);
      if (matches(id)) found = id;
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_AT_ONCE, queue.length) }, worker));
  return found;
}
