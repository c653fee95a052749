import { apiPost, CallFailed } from "../../lib/api.ts";

export type VerifyOtpOutcome = "verified" | "incorrect" | "failed";

export async function verifyOtp(phone: string, otp: string): Promise<VerifyOtpOutcome> {
  try {
    const reply = await apiPost<{ success: boolean }>("/api/verify-otp", { phone, otp });
    return reply.ok && reply.data?.success ? "verified" : "incorrect";
  } catch (error) {
    if (error instanceof CallFailed) return "failed";
    throw error;
  }
}
