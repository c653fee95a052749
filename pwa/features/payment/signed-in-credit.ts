import { api, CallFailed, send } from "../../lib/api.ts";
import { useReply } from "../../lib/use-reply.ts";

// The credit offered before paying (issue 52, docs/decisions/057-credit.md): the balance of the number
// signed in on My nights on this browser (`GET /api/me`), and only when it is the booking's number,
// since the checkout spends the booking's number's credit. No session, or another number: none.

/** The credit of `phone` as the /me session knows it, in cents; 0 when it knows none. */
export async function signedInCredit(phone: string): Promise<number> {
  try {
    const reply = await send(api.me.$get());
    return reply.ok && reply.data.phone === phone ? Math.max(0, reply.data.credit.balanceCents) : 0;
  } catch (error) {
    if (error instanceof CallFailed) return 0;
    throw error;
  }
}

/** The booking's number's credit, read once per number through the one reply hook: `ready` with the cents. */
export function useSignedInCredit(phone: string) {
  return useReply<{ status: "ready"; cents: number }, string>(phone, {
    load: async (number) => ({ status: "ready", cents: await signedInCredit(number) }),
    // Credit unknown: the checkout goes as it did before credit, for the full price.
    failed: () => ({ status: "ready", cents: 0 }),
  }).state;
}
