import { apiPost, CallFailed, replyError } from "../../lib/api.ts";
import { BOOKING_CLOSED, BOOKING_CLOSED_MESSAGE } from "../events/format.ts";
import { genderFull } from "./seat-messages.ts";
import type { Gender } from "./types.ts";

export type UserDetails = {
  name: string;
  email: string;
  phone: string;
  gender: Gender;
  eventID: number;
  eventName: string;
  image: File;
};

export type SaveOutcome =
  | { kind: "saved"; userID: number }
  | { kind: "sold-out" }
  /** A balanced event's seats for this gender are gone (others may be left): the waitlist is offered. */
  | { kind: "gender-full"; gender: Gender }
  | { kind: "refused"; error: string }
  /** The verified-phone cookie is gone (expired, cleared): the phone must be verified again. */
  | { kind: "unverified" }
  | { kind: "failed" };

export async function saveUserDetails(details: UserDetails): Promise<SaveOutcome> {
  const form = new FormData();
  form.append("name", details.name.trim());
  form.append("email", details.email.trim());
  form.append("phone", details.phone);
  form.append("gender", details.gender);
  form.append("eventID", String(details.eventID));
  form.append("eventName", details.eventName);
  form.append("image", details.image);
  try {
    const reply = await apiPost<{ success: boolean; userID?: number; error?: string; alreadyBooked?: boolean }>(
      "/api/save-user-details",
      form,
    );
    if (reply.ok && reply.data?.success && typeof reply.data.userID === "number") {
      return { kind: "saved", userID: reply.data.userID };
    }
    if (reply.status === 409 && reply.data?.alreadyBooked) {
      return { kind: "refused", error: "You already have a paid seat for this event." };
    }
    if (reply.status === 409 && replyError(reply.data) === BOOKING_CLOSED) {
      return { kind: "refused", error: BOOKING_CLOSED_MESSAGE };
    }
    const full = genderFull(replyError(reply.data));
    if (reply.status === 409 && full) return { kind: "gender-full", gender: full };
    // SPEC.md: "success false" here means the seats ran out; the server answers 409 for it.
    if (reply.status === 409) return { kind: "sold-out" };
    if (reply.status === 403) return { kind: "unverified" };
    if (reply.status >= 500) return { kind: "failed" };
    return { kind: "refused", error: replyError(reply.data) ?? "Could not save your details." };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}
