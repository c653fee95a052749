import { useEffect, useRef, useState } from "react";
import { ROOM_EVENT, type RoomEvent } from "../../common/room-events.ts";
import type { api } from "./api.ts";

/**
 * The room's stream (GET /api/round-events, docs/decisions/038-room-stream.md): the guests' round
 * view and the Rounds tab hear every Pause, +1 min, Next and Announce as it happens. Polling stays
 * underneath: fast while the stream is down, slow while it is up, so a phone follows the host
 * whatever the network or the browser does with the stream.
 */

/** The stream's query, as the server declares it: a guest's link, or staff by their session. */
export type RoomStreamQuery = Parameters<(typeof api)["round-events"]["$get"]>[0]["query"];

/** While the stream is up, a poll this rarely still catches anything it could have missed. */
export const LIVE_POLL_MS = 60_000;
/** The browser retries a dropped stream by itself; one it gave up on (an error status) is opened again this late. */
const REOPEN_MS = 15_000;

/** The stream's address. Built by hand: EventSource takes a URL, and hc's `$url` needs an absolute base. */
export const roomStreamUrl = (query: RoomStreamQuery) =>
  `/api/round-events?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined))}`;

/**
 * Keeps the room's stream open while online (closed offline, opened again on reconnect), and hands
 * each change to `onEvent`. Answers whether the stream is live: opened and heard from since the last
 * error. Does nothing where the browser has no EventSource; the caller's polling then does it all.
 */
export function useRoomStream(query: RoomStreamQuery | null, onEvent: (event: RoomEvent) => void): boolean {
  const [live, setLive] = useState(false);
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const url = query === null ? null : roomStreamUrl(query);

  useEffect(() => {
    if (url === null || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    const close = () => {
      clearTimeout(reopen);
      source?.close();
      source = null;
      setLive(false);
    };
    const open = () => {
      close();
      if (!navigator.onLine) return;
      const s = new EventSource(url);
      source = s;
      s.addEventListener(ROOM_EVENT, (e) => {
        let event: RoomEvent;
        try {
          event = JSON.parse((e as MessageEvent<string>).data) as RoomEvent;
        } catch {
          return;
        }
        setLive(true);
        handler.current(event);
      });
      s.onerror = () => {
        // Polling takes over at once; the browser reconnects by itself while it can.
        setLive(false);
        if (s.readyState === EventSource.CLOSED && source === s) {
          source = null;
          reopen = setTimeout(open, REOPEN_MS);
        }
      };
    };
    open();
    globalThis.addEventListener("online", open);
    globalThis.addEventListener("offline", close);
    return () => {
      globalThis.removeEventListener("online", open);
      globalThis.removeEventListener("offline", close);
      close();
    };
  }, [url]);

  return live;
}

/** The clock fields a view shares with the stream's messages. */
type Clocked = { status: string; phaseEndsAt: string | null; serverNow: string };

/**
 * A round or break that ends by the clock changes nothing the host pressed, so the stream says
 * nothing: while it is live, read the view again when the phase ends. `spreadMs` spreads a room's
 * phones over that long so they do not all ask in the same millisecond.
 */
export function usePhaseEndRefresh(
  view: Clocked | null,
  receivedAt: number,
  live: boolean,
  refresh: () => void,
  spreadMs = 0,
) {
  const again = useRef(refresh);
  again.current = refresh;
  const endsAt = view?.status === "running" ? view.phaseEndsAt : null;
  const serverNow = view?.serverNow ?? null;
  useEffect(() => {
    if (!live || endsAt === null || serverNow === null) return;
    const left = Date.parse(endsAt) - Date.parse(serverNow) - (Date.now() - receivedAt);
    const timer = setTimeout(() => again.current(), Math.max(0, left) + 250 + Math.random() * spreadMs);
    return () => clearTimeout(timer);
  }, [live, endsAt, serverNow, receivedAt, spreadMs]);
}
