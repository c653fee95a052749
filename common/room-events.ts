/**
 * The room's stream (GET /api/round-events, docs/decisions/038-room-stream.md): what the server
 * sends each phone and screen when the night's clock or plan changes. The same shape on both sides.
 */

/** The SSE event name every change is sent under. */
export const ROOM_EVENT = "rounds";

/**
 * Why the room changed. `open` is the first message of every connection (the client catches up on
 * what it missed while disconnected); `plan` a plan or re-plan (a guest's tables may have changed);
 * `people` someone marked Left or back, sent to staff only; `event` the event started or ended;
 * `ratings` guests' ratings arrived (the Rounds tab's `Ratings: 2 of 7 done`), staff only, coalesced.
 */
export type RoomChange =
  | "open"
  | "start"
  | "pause"
  | "resume"
  | "extend"
  | "next"
  | "finish"
  | "announcement"
  | "plan"
  | "people"
  | "event"
  | "ratings";

/**
 * The clock and the announcement, as both the guest's round view and the host's view show them, so
 * a phone can show a Pause or a Next from the message alone; anything else means "ask again".
 */
export type RoomEvent = {
  change: RoomChange;
  status: "none" | "planned" | "running" | "paused" | "finished";
  current: number | null;
  phase: "round" | "break" | null;
  phaseEndsAt: string | null;
  serverNow: string;
  announcement: string | null;
};

/** Changes only the staff's screens hear: the guests' phones have nothing to show for them. */
export const staffOnly = (change: RoomChange) => change === "people" || change === "ratings";

/** Changes a phone should answer by asking for its whole view again: the message does not carry them. */
export const needsRefetch = (change: RoomChange) => change === "open" || change === "plan" || change === "event";
