import { api, CallFailed, send } from "../../lib/api.ts";

export type LeaveOutcome = "left" | "unverified" | "failed";

export async function leaveWaitlist(input: { eventID: number; phone: string }): Promise<LeaveOutcome> {
  try {
    const reply = await send(api["leave-waitlist"].$post({ json: input }));
    // 404: the phone is no longer in line (the offer lapsed, a second tab left first); either way it is out.
    if (reply.ok || reply.data.code === "not_found") return "left";
    if (reply.status === 403) return "unverified";
    return "failed";
  } catch (error) {
    if (error instanceof CallFailed) return "failed";
    throw error;
  }
}
