import { useEffect, useState } from "react";

/**
 * The night's clock as a phone shows it. The server owns the time (its `phaseEndsAt`); the phone
 * only knows how far its own clock is from the server's, measured once per answer as `serverNow`
 * minus the phone's `Date.now()` when the answer arrived. A phone set five minutes wrong still
 * counts down the same seconds as the host's, and keeps doing so offline from the last answer.
 * Shared by the host's console and the guest's page (docs/decisions/020-rounds-on-the-phones.md).
 */

/** A time as the API sends it (ISO 8601, or epoch milliseconds) in epoch milliseconds. */
export function toMs(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const ms = typeof value === "number" ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** What a countdown needs from one answer, and when this phone received it. */
export type ClockReading = {
  phaseEndsAt: string | number | null;
  serverNow: string | number;
  /** The phone's `Date.now()` when the answer arrived. */
  receivedAt: number;
  /** A paused clock stands still at what was left when the answer was sent. */
  paused?: boolean;
};

/** How far the server's clock is ahead of this phone's (negative: behind). */
export function clockOffset(reading: Pick<ClockReading, "serverNow" | "receivedAt">): number {
  return (toMs(reading.serverNow) ?? reading.receivedAt) - reading.receivedAt;
}

/** The server's time now, estimated from this phone's clock and the offset of the last answer. */
export const serverTime = (reading: Pick<ClockReading, "serverNow" | "receivedAt">, now = Date.now()) =>
  now + clockOffset(reading);

/** Milliseconds left in the current phase (never below 0), or null when no phase is timed. */
export function remainingMs(reading: ClockReading, now = Date.now()): number | null {
  const end = toMs(reading.phaseEndsAt);
  if (end === null) return null;
  const at = reading.paused ? (toMs(reading.serverNow) ?? reading.receivedAt) : serverTime(reading, now);
  return Math.max(0, end - at);
}

/** `m:ss`, rounding up so that 0:00 shows only when the time is really up. */
export function formatClock(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * The time left in words, at most once a minute's worth of change, for a live region: a screen
 * reader hears "4 minutes left", not a number every second.
 */
export function spokenTimeLeft(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds === 0) return "Time is up";
  if (seconds <= 30) return "Less than 30 seconds left";
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "Less than a minute left" : `${minutes} minutes left`;
}

/** This phone's clock, re-read every `everyMs` while `active` (a countdown on screen). */
export function useNow(active: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
