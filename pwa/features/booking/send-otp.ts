import { apiPost, CallFailed, replyError } from "../../lib/api.ts";
import { BOOKING_CLOSED } from "../events/format.ts";

export type SendOtpReply = { success: boolean; PhoneVerification?: boolean; error?: string };
export type SendOtpOutcome =
  | { kind: "sent" }
  | { kind: "skip" }
  | { kind: "refused" }
  | { kind: "failed" }
  | { kind: "closed" };

/** SPEC.md section 8: any reply that is not a success is "Failed to send OTP.", a call that fails "Error sending OTP.". */
export async function sendOtp(phone: string, eventID: number): Promise<SendOtpOutcome> {
  try {
    const reply = await apiPost<SendOtpReply>("/api/send-otp", { phone, countryCode: "+61", eventID });
    if (reply.status === 409 && replyError(reply.data) === BOOKING_CLOSED) return { kind: "closed" };
    if (!reply.ok || !reply.data?.success) return { kind: "refused" };
    return reply.data.PhoneVerification ? { kind: "skip" } : { kind: "sent" };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}
