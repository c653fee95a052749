import { api, CallFailed, send } from "../../lib/api.ts";

export type VerifyOtpOutcome = "verified" | "incorrect" | "void" | "limited" | "failed";

/** `signIn`: the right code also signs this browser in on /me (docs/decisions/027-guest-identity.md). */
export async function verifyOtp(phone: string, otp: string, signIn?: true): Promise<VerifyOtpOutcome> {
  try {
    const reply = await send(api["verify-otp"].$post({ json: signIn ? { phone, otp, signIn } : { phone, otp } }));
    if (reply.ok) return "verified";
    // Only a refused code is "incorrect"; a server or SMS-provider fault must not make the attendee
    // retype a right code and burn their tries.
    // Past 10 wrong codes an hour even the right one is refused: saying "incorrect" would mislead.
    if (reply.status === 429) return "limited";
    // The fifth wrong guess voids the code (api/booking/otp.ts), and a code also runs out: retyping
    // cannot help, only a new code can.
    if (!reply.ok && reply.data.code === "code_expired") return "void";
    return reply.status >= 500 ? "failed" : "incorrect";
  } catch (error) {
    if (error instanceof CallFailed) return "failed";
    throw error;
  }
}
