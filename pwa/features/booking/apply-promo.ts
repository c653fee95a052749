import { api, CallFailed, send } from "../../lib/api.ts";

export type PromoOutcome =
  | { kind: "applied"; amount: number; discount: number; code: string }
  /** Wrong, expired, used up or for the other gender: the server's words, and the total is unchanged. */
  | { kind: "refused"; error: string }
  | { kind: "failed"; error: string };

/** **Apply** on the confirmation page: the held booking's new total (docs/api.md, apply-promo). */
export async function applyPromo(input: { userID: number; eventID: number; code: string }): Promise<PromoOutcome> {
  try {
    const reply = await send(api["apply-promo"].$post({ json: input }));
    if (reply.ok) return { kind: "applied", ...reply.data };
    if (reply.data.code === "hold_expired") {
      return { kind: "refused", error: "Your seat hold has expired. Please book again from the events page." };
    }
    if (reply.status === 409) return { kind: "refused", error: reply.data.error ?? "That promo code cannot be used." };
    if (reply.status === 400) return { kind: "refused", error: "Enter the promo code as it was given to you." };
    return { kind: "failed", error: "Could not check the promo code. Please try again." };
  } catch (error) {
    if (error instanceof CallFailed) {
      return { kind: "failed", error: "You seem to be offline. Please reconnect and try again." };
    }
    throw error;
  }
}
