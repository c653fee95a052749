import type { WantsToMeetValue } from "../../../common/format-words.ts";
import { api, CallFailed, send } from "../../lib/api.ts";
import { BOOKING_CLOSED_MESSAGE } from "../events/index.ts";
import type { Gender } from "./types.ts";

export type UserDetails = {
  name: string;
  email: string;
  phone: string;
  /** Left out at One group, which asks none; `nonbinary` at Mixed only (issue 37). */
  gender?: Gender | "nonbinary";
  /** Mixed nights only: whom they would like to meet. */
  wantsToMeet?: WantsToMeetValue;
  /** YYYY-MM-DD, as the date input gives it. */
  dateOfBirth: string;
  eventID: number;
  eventName: string;
  /** The new photo, or null to book with the number's saved photo (`useSavedPhoto`). */
  image: File | null;
  /** **Keep my details for next time**. */
  keepDetails?: boolean;
  /** **Text me about future events** and **Email me about future events**, as ticked. */
  marketing?: { sms: boolean; email: boolean };
  /** The announcement whose link led here (pwa/lib/announcement-link.ts), counted on it. */
  announcementId?: number;
  /** A ticket given to a friend: the link's token (docs/decisions/058-ticket-transfer.md). */
  transferToken?: string;
};

export type SaveOutcome =
  /** `holdExpiresAt`: until when the seat is held (ISO UTC). */
  | { kind: "saved"; userID: number; holdExpiresAt: string }
  /** A ticket given to a friend is now this number's own paid ticket. */
  | { kind: "transferred"; userID: number }
  | { kind: "sold-out" }
  /** A balanced event's seats for this gender are gone (others may be left): the waitlist is offered. */
  | { kind: "gender-full"; gender: Gender }
  | { kind: "refused"; error: string }
  /** The verified-phone cookie is gone (expired, cleared): the phone must be verified again. */
  | { kind: "unverified" }
  | { kind: "failed" };

export async function saveUserDetails(details: UserDetails): Promise<SaveOutcome> {
  try {
    const reply = await send(
      api["save-user-details"].$post({
        form: {
          // First, before the photo: the server then holds no seat for this form.
          ...(details.transferToken ? { transferToken: details.transferToken } : {}),
          name: details.name.trim(),
          email: details.email.trim(),
          phone: details.phone,
          ...(details.gender ? { gender: details.gender } : {}),
          ...(details.wantsToMeet ? { wantsToMeet: details.wantsToMeet } : {}),
          dateOfBirth: details.dateOfBirth,
          eventID: String(details.eventID),
          eventName: details.eventName,
          ...(details.image ? { image: details.image } : { useSavedPhoto: "true" as const }),
          keepDetails: details.keepDetails ? "true" : "false",
          // An unticked box is left out, as a browser's own form would: it records nothing.
          ...(details.marketing?.sms ? { marketingSms: "1" as const } : {}),
          ...(details.marketing?.email ? { marketingEmail: "1" as const } : {}),
          ...(details.announcementId ? { announcementId: String(details.announcementId) } : {}),
        },
      }),
    );
    if (reply.ok)
      return "transferred" in reply.data
        ? { kind: "transferred", userID: reply.data.userID }
        : { kind: "saved", userID: reply.data.userID, holdExpiresAt: reply.data.holdExpiresAt };
    const { code } = reply.data;
    // A given ticket's refusals say why in the server's own sentence (used link, doors open, …).
    if (details.transferToken && reply.status !== 401 && code !== "phone_not_verified")
      return { kind: "refused", error: reply.data.error || "This ticket can't be taken now." };
    if (code === "already_booked") return { kind: "refused", error: "You already have a paid seat for this event." };
    if (code === "booking_closed") return { kind: "refused", error: BOOKING_CLOSED_MESSAGE };
    // The server's words name the event's real range: `This event is for ages 25–35`.
    if (code === "age_out_of_range")
      return { kind: "refused", error: reply.data.error || "This event is not for your age." };
    if (reply.data.code === "gender_sold_out") return { kind: "gender-full", gender: reply.data.gender };
    // The product's "success false" on this step means the seats ran out (docs/api.md: 409 sold_out).
    if (reply.status === 409) return { kind: "sold-out" };
    if (code === "phone_not_verified") return { kind: "unverified" };
    if (reply.status >= 500) return { kind: "failed" };
    return { kind: "refused", error: reply.data.error || "Could not save your details." };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}
