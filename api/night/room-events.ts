import { ROOM_EVENT, type RoomChange, type RoomEvent, staffOnly } from "../../common/room-events.ts";
import type { Db } from "../../db/client.ts";
import { getRounds, type RoundsView } from "./rounds.ts";

/**
 * The room's stream: an in-process publish/subscribe keyed by event id (one Node process serves the
 * night), so Pause, +1 min, Next and Announce reach every connected phone and screen at once
 * (docs/decisions/038-room-stream.md). One hub per database, so two apps in one process (the tests)
 * never hear each other's events.
 */

/** Who a listener is: a guest hears only what their own round view shows, staff hear everything. */
export type Audience = "guest" | "staff";

/**
 * Whose right opened a stream (docs/decisions/040-sharing-defaults-and-stream-rights.md): the
 * organiser's session, a host link, or a guest's booking (and its number). When that right ends
 * (sign-out, Revoke, a refund, Delete my details) `endStreamsFor` ends the streams it opened.
 */
export type StreamOwner =
  | { kind: "organiser"; sessionId: string | null }
  | { kind: "host"; linkId: number }
  | { kind: "guest"; bookingId: number; phone: string };

/** A right that ended: any stream opened with it is ended. */
export type EndedRight =
  | { adminSession: string | null }
  | { hostLink: number }
  | { booking: number }
  | { phone: string };

export type RoomListener = {
  audience: Audience;
  /** Who opened it; without one (a listener made in code), no right ends it but shutdown. */
  owner?: StreamOwner;
  /** Writes one already framed SSE chunk; must not throw. */
  write(chunk: string): void;
  /** Ends the connection (shutdown). */
  close(): void;
};

/** A comment line every 20 s: proxies and phones' networks drop a connection that stays silent. */
export const HEARTBEAT_MS = 20_000;
/** How long a browser waits before reconnecting a dropped stream. */
export const RECONNECT_MS = 3_000;

type Hub = {
  rooms: Map<number, Set<RoomListener>>;
  seq: number;
  heartbeat: NodeJS.Timeout | undefined;
  /** Per event: when the last `ratings` message went (performance.now()), and a send waiting to go. */
  ratings: Map<number, { sentAt: number; pending: NodeJS.Timeout | undefined }>;
};

const hubs = new WeakMap<Db, Hub>();

function hubOf(db: Db): Hub {
  let hub = hubs.get(db);
  if (!hub) {
    hub = { rooms: new Map(), seq: 0, heartbeat: undefined, ratings: new Map() };
    hubs.set(db, hub);
  }
  return hub;
}

const total = (hub: Hub) => {
  let n = 0;
  for (const set of hub.rooms.values()) n += set.size;
  return n;
};

/** One SSE frame. JSON has no raw line breaks, so `data` is one line. */
export const sseFrame = (id: number, data: RoomEvent, retry?: number) =>
  `event: ${ROOM_EVENT}\nid: ${id}\n${retry === undefined ? "" : `retry: ${retry}\n`}data: ${JSON.stringify(data)}\n\n`;

/** The part of the host's view every listener may see: the clock and the announcement. */
export const roomEventOf = (
  view: Pick<RoundsView, keyof Omit<RoomEvent, "change">>,
  change: RoomChange,
): RoomEvent => ({
  change,
  status: view.status,
  current: view.current,
  phase: view.phase,
  phaseEndsAt: view.phaseEndsAt,
  serverNow: view.serverNow,
  announcement: view.announcement,
});

/**
 * Adds a listener to an event's room; the answer removes it (call it when the connection closes).
 * The first message the listener gets is the room as it is now.
 */
export function subscribe(db: Db, eventId: number, listener: RoomListener, now: RoomEvent): () => void {
  const hub = hubOf(db);
  let room = hub.rooms.get(eventId);
  if (!room) {
    room = new Set();
    hub.rooms.set(eventId, room);
  }
  room.add(listener);
  listener.write(sseFrame(++hub.seq, now, RECONNECT_MS));
  if (!hub.heartbeat) {
    hub.heartbeat = setInterval(() => {
      for (const set of hub.rooms.values()) for (const l of set) l.write(": ping\n\n");
    }, HEARTBEAT_MS);
    // A quiet room must not keep a test or a shutting-down process alive.
    hub.heartbeat.unref();
  }
  let gone = false;
  return () => {
    if (gone) return;
    gone = true;
    const set = hub.rooms.get(eventId);
    set?.delete(listener);
    if (set && set.size === 0) hub.rooms.delete(eventId);
    if (total(hub) === 0 && hub.heartbeat) {
      clearInterval(hub.heartbeat);
      hub.heartbeat = undefined;
    }
  };
}

/** Connected listeners: of one event, or of every event. */
export function roomSubscribers(db: Db, eventId?: number): number {
  const hub = hubs.get(db);
  if (!hub) return 0;
  return eventId === undefined ? total(hub) : (hub.rooms.get(eventId)?.size ?? 0);
}

/**
 * Tells everyone in the event's room that it changed. `view` is the host's view the change answered
 * with; without it (Start Event, End Event) it is read here. Costs nothing when nobody listens.
 * A failure here must never fail the host's tap, which has already been saved.
 */
export function notifyRoom(
  deps: { db: Db; now: () => number },
  eventId: number,
  change: RoomChange,
  view?: RoundsView,
): void {
  const hub = hubs.get(deps.db);
  const room = hub?.rooms.get(eventId);
  if (!hub || !room || room.size === 0) return;
  let event: RoomEvent;
  try {
    event = roomEventOf(view ?? getRounds(deps.db, eventId, deps.now()), change);
  } catch {
    return;
  }
  // Framed once for the whole room: 200 phones cost 200 socket writes, not 200 serialisations.
  const frame = sseFrame(++hub.seq, event);
  const toGuests = !staffOnly(change);
  for (const listener of room) if (toGuests || listener.audience === "staff") listener.write(frame);
}

const openedWith = (owner: StreamOwner | undefined, right: EndedRight): boolean => {
  if (!owner) return false;
  if ("adminSession" in right)
    return owner.kind === "organiser" && right.adminSession !== null && owner.sessionId === right.adminSession;
  if ("hostLink" in right) return owner.kind === "host" && owner.linkId === right.hostLink;
  if ("booking" in right) return owner.kind === "guest" && owner.bookingId === right.booking;
  return owner.kind === "guest" && owner.phone === right.phone;
};

/**
 * Ends, at once, every open stream opened with a right that just ended: a signed-out session, a
 * revoked host link, a refunded booking, an erased number. A reconnect then asks again and is refused.
 * Answers how many it ended; safe to call from inside or after the change, and when nobody listens.
 */
export function endStreamsFor(db: Db, right: EndedRight): number {
  const hub = hubs.get(db);
  if (!hub) return 0;
  let ended = 0;
  for (const set of [...hub.rooms.values()])
    for (const l of [...set])
      if (openedWith(l.owner, right)) {
        ended++;
        l.close();
      }
  return ended;
}

/**
 * At most one `ratings` message per event in this long: a room of 40 rating at the end of the night
 * is hundreds of saves in a minute, and each message makes every staff screen read the ratings again.
 */
export const RATINGS_COALESCE_MS = 2_000;

/**
 * Tells the staff's screens that ratings arrived, so the Rounds tab's count follows the room
 * (issue 46). The first save goes at once; saves within RATINGS_COALESCE_MS of the last message are
 * folded into one more message at the end of that window, so the last save is always told. Costs
 * nothing when no staff screen listens. Measured on the process's own clock: it spaces messages in
 * real time, whatever the app's `now`.
 */
export function notifyRatings(deps: { db: Db; now: () => number }, eventId: number): void {
  const hub = hubs.get(deps.db);
  const room = hub?.rooms.get(eventId);
  if (!hub || !room || ![...room].some((l) => l.audience === "staff")) return;
  const state = hub.ratings.get(eventId) ?? { sentAt: Number.NEGATIVE_INFINITY, pending: undefined };
  hub.ratings.set(eventId, state);
  if (state.pending) return;
  const send = () => {
    state.pending = undefined;
    state.sentAt = performance.now();
    notifyRoom(deps, eventId, "ratings");
  };
  const wait = state.sentAt + RATINGS_COALESCE_MS - performance.now();
  if (wait <= 0) send();
  else {
    state.pending = setTimeout(send, wait);
    // A waiting count must not keep a test or a shutting-down process alive.
    state.pending.unref();
  }
}

/** Ends every open stream (graceful shutdown): browsers reconnect to the next server. */
export function closeRoomStreams(db: Db): void {
  const hub = hubs.get(db);
  if (!hub) return;
  for (const set of hub.rooms.values()) for (const l of [...set]) l.close();
}
