import { apiPost, CallFailed, replyError } from "../../lib/api.ts";
import { BOOKING_CLOSED } from "../events/format.ts";
import type { Gender } from "./types.ts";

export type JoinWaitlistInput = { eventID: number; phone: string; gender: Gender; name: string };

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

// The server's 409 reasons (api/services/waitlist.ts), told apart by their text as the contract writes them.
const SEAT_FREE = /seat is free/;
const ALREADY_WAITING = /already on the waitlist/;

export async function joinWaitlist(input: JoinWaitlistInput): Promise<JoinOutcome> {
  try {
    const reply = await apiPost<{ success: boolean; position?: number; error?: string; alreadyBooked?: boolean }>(
      "/api/join-waitlist",
      { ...input, name: input.name.trim() },
    );
    if (reply.ok && reply.data?.success && typeof reply.data.position === "number") {
      return { kind: "joined", position: reply.data.position };
    }
    const error = replyError(reply.data);
    if (reply.status === 409) {
      if (reply.data?.alreadyBooked) return { kind: "already-booked" };
      if (error === BOOKING_CLOSED) return { kind: "closed" };
      if (error && SEAT_FREE.test(error)) return { kind: "seat-free" };
      if (error && ALREADY_WAITING.test(error)) return { kind: "already-waiting" };
    }
    if (reply.status === 403) return { kind: "unverified" };
    if (reply.status >= 500) return { kind: "failed" };
    return { kind: "refused", error: error ?? "Could not join the waitlist." };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}
