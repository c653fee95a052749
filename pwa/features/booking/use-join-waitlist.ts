import { useState } from "react";
import { BOOKING_CLOSED_MESSAGE } from "../events/index.ts";
import { type JoinOutcome, joinWaitlist } from "./join-waitlist.ts";
import type { Gender } from "./types.ts";

export const SEAT_FREE_MESSAGE = "A seat has just become free, so there's no need to wait: book it now.";

const MESSAGES: Record<Exclude<JoinOutcome["kind"], "joined" | "already-waiting" | "refused">, string> = {
  "seat-free": SEAT_FREE_MESSAGE,
  "already-booked": "You already have a paid seat for this event.",
  closed: BOOKING_CLOSED_MESSAGE,
  unverified: "Your mobile number needs to be verified again before you can join the waitlist.",
  failed: "Could not join the waitlist. Please check your connection and try again.",
};

/**
 * Joining the waitlist from either form. `onJoined` gets the place in line, or null when this phone
 * was already waiting (the server does not say where).
 */
export function useJoinWaitlist(eventID: number, phone: string, onJoined: (position: number | null) => void) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<JoinOutcome | null>(null);
  const join = async (name: string, gender: Gender | undefined, marketingSms = false) => {
    setBusy(true);
    setOutcome(null);
    const result = await joinWaitlist({
      eventID,
      phone,
      ...(gender ? { gender } : {}),
      name,
      ...(marketingSms ? { marketingSms } : {}),
    });
    setBusy(false);
    if (result.kind === "joined") onJoined(result.position);
    else if (result.kind === "already-waiting") onJoined(null);
    else setOutcome(result);
  };
  const message =
    !outcome || outcome.kind === "joined" || outcome.kind === "already-waiting"
      ? null
      : outcome.kind === "refused"
        ? `${outcome.error.charAt(0).toUpperCase()}${outcome.error.slice(1)}.`
        : MESSAGES[outcome.kind];
  return {
    join,
    busy,
    message,
    seatFree: outcome?.kind === "seat-free",
    unverified: outcome?.kind === "unverified",
    reset: () => setOutcome(null),
  };
}
