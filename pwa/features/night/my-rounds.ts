import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { needsRefetch, type RoomEvent } from "../../../common/room-events.ts";
import { api, CallFailed, imageUrl, type Ok, send } from "../../lib/api.ts";
import { keepForOffline } from "../../lib/offline-cache.ts";
import { offlineDb, ticketKey } from "../../lib/offline-db.ts";
import { LIVE_POLL_MS, usePhaseEndRefresh, useRoomStream } from "../../lib/use-room-stream.ts";
import type { FeedbackLink } from "../feedback/index.ts";

/**
 * The guest's night from the start text's link: their table and partner in each round, and the
 * host's clock. Told of each change by the room's stream while it is up (within a second), polled
 * while it is not, and kept on the device so a reload on dead venue Wi-Fi still shows it
 * (docs/decisions/020-rounds-on-the-phones.md, 038-room-stream.md).
 */

/** The guest's night as the server tells it (api/night/rounds-routes.ts). */
export type MyRounds = Ok<(typeof api)["my-rounds"]["$post"]>;
export type MyRoundsEntry = MyRounds["schedule"][number];
export type MyRoundsPartner = NonNullable<MyRoundsEntry["partner"]>;

export const myRounds = (link: FeedbackLink) =>
  send(api["my-rounds"].$post({ json: { eventID: link.eventID, userID: link.userID, token: link.token } }));

/** Without the room's stream: two polls fit in the 10 seconds the phone has to follow the host. */
export const MY_ROUNDS_POLL_MS = 5_000;

export type NightState =
  | { status: "loading" }
  /** Nothing to show: a link the server refuses, or offline with nothing kept on this phone. */
  | { status: "unavailable"; reason: "link" | "offline" | "error" }
  /** `kept`: the last answer saved on this phone, shown because the server could not be reached. */
  | { status: "ready"; reply: MyRounds; receivedAt: number; kept: boolean };

/** Which moment of the night an answer is in: a change of it is worth a buzz. */
export const phaseKey = (reply: MyRounds) => `${reply.status}:${reply.current ?? 0}:${reply.phase ?? "-"}`;

/** A short buzz where the browser allows it (it refuses before the first tap on the page). */
function buzz() {
  try {
    // Checked rather than typed: this module also reaches the service worker's type check (tsconfig.sw.json).
    if ("vibrate" in navigator && typeof navigator.vibrate === "function") navigator.vibrate([200, 100, 200]);
  } catch {
    // Vibration is a nicety; a browser that throws simply does not buzz.
  }
}

const keptKey = (link: FeedbackLink) => ticketKey(link.eventID, link.userID);

/** The latest answer, kept on this phone for a reload with no network. */
async function keep(link: FeedbackLink, reply: MyRounds, receivedAt: number) {
  try {
    await (await offlineDb()).put("myRounds", {
      key: keptKey(link),
      eventID: link.eventID,
      userID: link.userID,
      reply,
      receivedAt,
    });
  } catch {
    // The copy on the phone is a convenience; the page still shows the answer.
  }
}

async function readKept(link: FeedbackLink) {
  try {
    return await (await offlineDb()).get("myRounds", keptKey(link));
  } catch {
    return undefined;
  }
}

/**
 * The guest's rounds: the copy kept on this phone at once, then the server's, again on each change
 * the room's stream tells of, every `pollMs` while online without the stream (every minute with it),
 * and as soon as the network comes back. Buzzes when the phase changes.
 */
export function useMyRounds(link: FeedbackLink | null, pollMs = MY_ROUNDS_POLL_MS) {
  const [state, setState] = useState<NightState>({ status: "loading" });
  const lastKey = useRef<string | null>(null);
  // A finished night changes no more: the polling stops there.
  const finished = useRef(false);
  /** The last answer shown, from the server or the phone: a stream message updates its clock. */
  const shown = useRef<MyRounds | null>(null);

  const show = useCallback((reply: MyRounds, receivedAt: number, kept: boolean) => {
    // A poll answered before a change the stream has already shown must not undo it.
    const last = shown.current;
    if (last !== null && Date.parse(reply.serverNow) < Date.parse(last.serverNow)) return false;
    shown.current = reply;
    const key = phaseKey(reply);
    finished.current = reply.status === "finished";
    if (lastKey.current !== null && lastKey.current !== key) buzz();
    lastKey.current = key;
    setState({ status: "ready", reply, receivedAt, kept });
    return true;
  }, []);

  const load = useCallback(async () => {
    if (!link) return;
    let reply: Awaited<ReturnType<typeof myRounds>>;
    try {
      reply = await myRounds(link);
    } catch (error) {
      if (!(error instanceof CallFailed)) throw error;
      setState(unreachedState);
      return false;
    }
    if (!reply.ok) {
      const status = reply.status;
      setState((s) => refusedState(s, status));
      return true;
    }
    const receivedAt = Date.now();
    if (!show(reply.data, receivedAt, false)) return true;
    // The partners' photos too, so a reload with no network shows faces, not broken images.
    void keepForOffline(
      "images",
      reply.data.schedule.flatMap((e) => (e.partner ? [imageUrl(e.partner.image_name)] : [])),
    );
    await keep(link, reply.data, receivedAt);
    return true;
  }, [link, show]);

  // A Pause, +1 min, Next or Announce carries the new clock: shown at once, with no request. A plan,
  // the event's start or end, and a (re)connection may change the tables: the view is read again.
  const onRoomEvent = useCallback(
    (event: RoomEvent) => {
      const last = shown.current;
      if (!link || last === null || needsRefetch(event.change)) {
        void load();
        return;
      }
      const { change: _, ...clock } = event;
      const reply = { ...last, ...clock };
      const receivedAt = Date.now();
      if (show(reply, receivedAt, false)) void keep(link, reply, receivedAt);
    },
    [link, load, show],
  );
  const live = useRoomStream(
    link ? { eventID: String(link.eventID), userID: String(link.userID), t: link.token } : null,
    onRoomEvent,
  );
  const ready = state.status === "ready" && !state.kept ? state : null;
  // A room's phones ask within a second of each other when a round ends by the clock.
  usePhaseEndRefresh(ready?.reply ?? null, ready?.receivedAt ?? 0, live, () => void load(), 1_000);

  useEffect(() => {
    if (!link) return;
    let active = true;
    lastKey.current = null;
    shown.current = null;
    finished.current = false;
    setState({ status: "loading" });
    void (async () => {
      const kept = await readKept(link);
      if (active && kept) {
        setState((s) => {
          if (s.status === "ready") return s;
          lastKey.current = phaseKey(kept.reply);
          return { status: "ready", reply: kept.reply, receivedAt: kept.receivedAt, kept: true };
        });
      }
      if (!active) return;
      const reached = await load();
      if (active && !reached && !kept) setState({ status: "unavailable", reason: "offline" });
    })();
    return () => {
      active = false;
    };
  }, [link, load]);

  useNightPoll(link, load, finished, pollMs, live);

  return { state, reload: load };
}

/** The server could not be reached: what is shown stays (as the kept copy), or the night is unavailable. */
const unreachedState = (s: NightState): NightState =>
  s.status === "ready"
    ? { ...s, kept: true }
    : s.status === "loading"
      ? s
      : { status: "unavailable", reason: "offline" };

/**
 * The server refused: a refused link (403) hides the night, said once by the partner grid below;
 * any other refusal keeps what is shown as the kept copy, or says there is nothing to show.
 */
const refusedState = (s: NightState, status: number): NightState =>
  status === 403 || s.status !== "ready"
    ? { status: "unavailable", reason: status === 403 ? "link" : "error" }
    : { ...s, kept: true };

/**
 * Polling: the whole story without the stream, a safety net with it, and at once when the network
 * comes back; none once the night is finished. Its own effect, so the stream coming and going
 * changes the pace without reloading the page's state.
 */
function useNightPoll(
  link: FeedbackLink | null,
  load: () => Promise<boolean | undefined>,
  finished: RefObject<boolean>,
  pollMs: number,
  live: boolean,
) {
  const busy = useRef(false);
  useEffect(() => {
    if (!link) return;
    let on = true;
    const poll = async () => {
      if (busy.current || finished.current || !navigator.onLine) return;
      busy.current = true;
      try {
        if (on) await load();
      } finally {
        busy.current = false;
      }
    };
    const timer = setInterval(() => void poll(), live ? Math.max(pollMs, LIVE_POLL_MS) : pollMs);
    const onOnline = () => void poll();
    globalThis.addEventListener("online", onOnline);
    return () => {
      on = false;
      clearInterval(timer);
      globalThis.removeEventListener("online", onOnline);
    };
  }, [link, load, finished, pollMs, live]);
}
