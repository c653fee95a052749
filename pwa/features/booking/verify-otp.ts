import { apiPost, CallFailed } from "../../lib/api.ts";

export type VerifyOtpOutcome = "verified" | "incorrect" | "limited" | "failed";

export async function verifyOtp(phone: string, otp: string): Promise<VerifyOtpOutcome> {
  try {
    const reply = await apiPost<{ success: boolean }>("/api/verify-otp", { phone, otp });
    if (reply.ok && reply.data?.success) return "verified";
    // Only a refused code is "incorrect"; a server or SMS-provider fault must not make the attendee
    // retype a right code and burn their tries.
    // Past 10 wrong codes an hour even the right one is refused: saying "incorrect" would mislead.
    if (reply.status === 429) return "limited";
    return reply.status >= 500 ? "failed" : "incorrect";
  } catch (error) {
    if (error instanceof CallFailed) return "failed";
    throw error;
  }
}
