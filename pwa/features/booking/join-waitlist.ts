import { api, CallFailed, send } from "../../lib/api.ts";
import type { Gender } from "./types.ts";

export type JoinWaitlistInput = {
  eventID: number;
  phone: string;
  /** Women meet men only: a one-pool night's line asks no gender. */
  gender?: Gender;
  name: string;
  /** **Text me about future events**, as ticked (left out when not: it records nothing). */
  marketingSms?: boolean;
};

export type JoinOutcome =
  | { kind: "joined"; position: number }
  /** A seat of this gender is free after all: book it instead of waiting. */
  | { kind: "seat-free" }
  | { kind: "already-waiting" }
  | { kind: "already-booked" }
  | { kind: "closed" }
  /** The verified-phone cookie is gone: the phone must be verified again. */
  | { kind: "unverified" }
  | { kind: "refused"; error: string }
  | { kind: "failed" };

export async function joinWaitlist(input: JoinWaitlistInput): Promise<JoinOutcome> {
  try {
    const reply = await send(api["join-waitlist"].$post({ json: { ...input, name: input.name.trim() } }));
    if (reply.ok) return { kind: "joined", position: reply.data.position };
    switch (reply.data.code) {
      case "already_booked":
        return { kind: "already-booked" };
      case "booking_closed":
        return { kind: "closed" };
      case "seat_free":
        return { kind: "seat-free" };
      case "already_waiting":
        return { kind: "already-waiting" };
      case "phone_not_verified":
        return { kind: "unverified" };
    }
    if (reply.status >= 500) return { kind: "failed" };
    return { kind: "refused", error: reply.data.error ?? "Could not join the waitlist." };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}
