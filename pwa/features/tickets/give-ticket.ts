import { normaliseAuMobile } from "../../../common/phone.ts";
import { api, CallFailed, send } from "../../lib/api.ts";

// **Give my ticket to a friend** (docs/api.md, `POST /api/transfer-ticket`;
// docs/decisions/058-ticket-transfer.md), from the ticket on /tickets and My nights.

export type GiveOutcome =
  | { kind: "offered" }
  /** The server's sentence: the buyer's own number, a number with a ticket, the doors open, … */
  | { kind: "refused"; message: string }
  | { kind: "signed-out" }
  | { kind: "offline" };

/** Offers the ticket to `typed` (an Australian mobile as typed); the friend is texted a link. */
export async function giveTicket(target: { eventID: number; userID: number }, typed: string): Promise<GiveOutcome> {
  const toPhone = normaliseAuMobile(typed);
  if (!toPhone) return { kind: "refused", message: "Enter your friend's Australian mobile number, like 0412 345 678." };
  try {
    const reply = await send(api["transfer-ticket"].$post({ json: { ...target, toPhone } }));
    if (reply.ok) return { kind: "offered" };
    if (reply.data.code === "guest_session_required") return { kind: "signed-out" };
    return { kind: "refused", message: reply.data.error || "Couldn't give the ticket. Try again." };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "offline" };
    throw error;
  }
}
