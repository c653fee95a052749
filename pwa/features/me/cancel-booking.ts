import { api, CallFailed, send } from "../../lib/api.ts";

// Cancel my booking (docs/api.md, `POST /api/cancel-booking`; docs/decisions/028-cancellation-money-path.md).

export type CancelOutcome =
  | { kind: "done"; refundCents: number; status: "refunded" | "cancelled" }
  | { kind: "too-late" }
  | { kind: "signed-out" }
  | { kind: "offline" }
  | { kind: "failed" };

export async function cancelBooking(target: { eventID: number; userID: number }): Promise<CancelOutcome> {
  try {
    const reply = await send(api["cancel-booking"].$post({ json: target }));
    if (reply.ok) return { kind: "done", ...reply.data };
    if (reply.data.code === "too_late_to_cancel") return { kind: "too-late" };
    if (reply.data.code === "guest_session_required") return { kind: "signed-out" };
    return { kind: "failed" };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "offline" };
    throw error;
  }
}
