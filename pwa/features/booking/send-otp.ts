import { api, CallFailed, send } from "../../lib/api.ts";
import { BOOKING_CLOSED_MESSAGE } from "../events/index.ts";

export type SendOtpOutcome =
  | { kind: "sent" }
  | { kind: "skip" }
  /** 400: the number is not an Australian mobile. */
  | { kind: "refused" }
  /** 429: too many codes for this number or from this address. */
  | { kind: "limited" }
  /** The SMS provider or the server failed (5xx). */
  | { kind: "unavailable" }
  /** The event was cancelled or started by the organiser. */
  | { kind: "not-taking" }
  | { kind: "failed" }
  | { kind: "closed" };

/**
 * Who the code is for: a booking of `eventID`, or signing in on /me (`signIn`: a code is texted even
 * when this browser verified the phone before; docs/decisions/027-guest-identity.md).
 */
export type CodeFor = { eventID: number; signIn?: never } | { eventID?: never; signIn: true };

/** Any reply that is not a success is "Failed to send OTP.", a call that fails "Error sending OTP.". */
export async function sendOtp(phone: string, codeFor: CodeFor): Promise<SendOtpOutcome> {
  try {
    const reply = await send(api["send-otp"].$post({ json: { phone, countryCode: "+61", ...codeFor } }));
    if (reply.ok) return reply.data.PhoneVerification ? { kind: "skip" } : { kind: "sent" };
    switch (reply.data.code) {
      case "booking_closed":
        return { kind: "closed" };
      case "not_taking_bookings":
        return { kind: "not-taking" };
      case "rate_limited":
        return { kind: "limited" };
      case "invalid_request":
        return { kind: "refused" };
    }
    return { kind: "unavailable" };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}

export type SendOtpProblem = Exclude<SendOtpOutcome["kind"], "sent" | "skip">;

/**
 * What the attendee reads when no code went out: the product's line first, then what to do about it.
 */
export const SEND_OTP_MESSAGES: Record<SendOtpProblem, { message: string; advice: string | null }> = {
  refused: {
    message: "Failed to send OTP.",
    advice: "Check the number: it must be an Australian mobile starting 04, like 0412 345 678.",
  },
  limited: {
    message: "Failed to send OTP.",
    advice: "Too many codes were asked for. Please wait a while (up to an hour), then try again.",
  },
  unavailable: {
    message: "Failed to send OTP.",
    advice: "We couldn't send the text just now. Please try again in a minute.",
  },
  "not-taking": { message: "Failed to send OTP.", advice: "This event is no longer taking bookings." },
  failed: { message: "Error sending OTP.", advice: "Check your connection, then try again." },
  closed: { message: BOOKING_CLOSED_MESSAGE, advice: null },
};
