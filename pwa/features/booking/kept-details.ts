import { api, CallFailed, type Ok, send } from "../../lib/api.ts";

// The details form's prefill (docs/api.md, `GET /api/kept-details`; docs/decisions/029-kept-details.md).

export type KeptDetails = NonNullable<Ok<(typeof api)["kept-details"]["$get"]>["kept"]>;

/** What this verified number kept for next time, or null (none kept, not verified, offline). */
export async function getKeptDetails(phone: string): Promise<KeptDetails | null> {
  try {
    const reply = await send(api["kept-details"].$get({ query: { phone } }));
    return reply.ok ? reply.data.kept : null;
  } catch (error) {
    // The form works as it always did without a prefill.
    if (error instanceof CallFailed) return null;
    throw error;
  }
}
