import { guarded } from "../../lib/admin-session.ts";
import { api, CallFailed, send } from "../../lib/api.ts";

// **Give credit** on the participants list (issue 52, docs/decisions/057-credit.md): Finance's work,
// like a refund. The amount is typed in dollars and sent as whole cents.

/** The most one gift may be (api/organiser/credit-routes.ts, GIVE_CREDIT_MAX_CENTS): $1,000. */
export const GIVE_CREDIT_MAX_CENTS = 100_000;

/**
 * `45`, `45.5`, `$45.50` or `1,000` as whole cents; null for anything else (letters, a third decimal,
 * zero, a minus, more than the most one gift may be). Read from the digits, never through a float.
 */
export function dollarsToCents(text: string): number | null {
  const match = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const dollars = Number(match[1]!.replaceAll(",", ""));
  const cents = dollars * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return cents >= 1 && cents <= GIVE_CREDIT_MAX_CENTS ? cents : null;
}

export type GiveCreditOutcome = { ok: true } | { ok: false; message: string };

/** Posts the gift; the words to show when it did not go. */
export async function giveCredit(input: {
  userID: number;
  amountCents: number;
  reason: string;
}): Promise<GiveCreditOutcome> {
  try {
    const reply = await guarded(send(api["give-credit"].$post({ json: input })));
    if (reply.ok) return { ok: true };
    if (reply.data.code === "not_found") return { ok: false, message: "This participant's number is no longer held." };
    if (reply.status === 403) return { ok: false, message: "Your role cannot give credit." };
    return { ok: false, message: reply.data.error ?? "Couldn't give the credit. Try again." };
  } catch (error) {
    if (error instanceof CallFailed) return { ok: false, message: "You're offline. Try again when connected." };
    throw error;
  }
}
