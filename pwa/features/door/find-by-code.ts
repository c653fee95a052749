import type { Roster } from "../../../api/night/roster.ts";
import { normaliseTicketCode, ticketCodeHash } from "../../../common/ticket-code.ts";

export { normaliseTicketCode as normaliseCode } from "../../../common/ticket-code.ts";

/** Ticket codes are 10 characters; anything much shorter is a name or phone digits, not a code. */
const MIN_CODE_LENGTH = 6;

/**
 * The attendee whose ticket carries the typed code, or null, found on the phone with no network: the
 * roster carries each ticket code's keyed hash and the event's key (docs/decisions/008-door.md), so
 * the typed code (any case, with spaces or dashes) is hashed here and compared. A roster kept before
 * hashes were sent, or a phone without WebCrypto (not a secure context), finds nobody.
 */
export async function findByCode(roster: Pick<Roster, "attendees" | "codeKey">, typed: string): Promise<number | null> {
  const wanted = normaliseTicketCode(typed);
  if (wanted.length < MIN_CODE_LENGTH || !/^[A-Z0-9]+$/.test(wanted) || !roster.codeKey) return null;
  if (!globalThis.crypto?.subtle) return null;
  const hash = await ticketCodeHash(roster.codeKey, wanted);
  return roster.attendees.find((a) => a.codeHash === hash)?.userID ?? null;
}
