import { useCallback, useEffect, useRef, useState } from "react";
import { api, CallFailed, imageUrl, type Ok, send } from "../../lib/api.ts";
import { keepForOffline } from "../../lib/offline-cache.ts";
import { offlineDb, ticketKey } from "../../lib/offline-db.ts";
import type { FeedbackLink } from "./link.ts";

/**
 * The guest's night from the start text's link: their table and partner in each round, and the
 * host's clock. Polled while the page is open so the phone follows the host within 10 seconds, and
 * kept on the device so a reload on dead venue Wi-Fi still shows it (docs/decisions/020-rounds-on-the-phones.md).
 */

/** The guest's night as the server tells it (api/night/rounds-routes.ts). */
export type MyRounds = Ok<(typeof api)["my-rounds"]["$post"]>;
export type MyRoundsEntry = MyRounds["schedule"][number];
export type MyRoundsPartner = NonNullable<MyRoundsEntry["partner"]>;

export const myRounds = (link: FeedbackLink) =>
  send(api["my-rounds"].$post({ json: { eventID: link.eventID, userID: link.userID, token: link.token } }));

/** Two polls fit in the 10 seconds the phone has to follow the host. */
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

async function readKept(link: FeedbackLink) {
  try {
    return await (await offlineDb()).get("myRounds", keptKey(link));
  } catch {
    return undefined;
  }
}

/**
 * The guest's rounds: the copy kept on this phone at once, then the server's, again every
 * `pollMs` while online and as soon as the network comes back. Buzzes when the phase changes.
 */
export function useMyRounds(link: FeedbackLink | null, pollMs = MY_ROUNDS_POLL_MS) {
  const [state, setState] = useState<NightState>({ status: "loading" });
  const lastKey = useRef<string | null>(null);
  // A finished night changes no more: the polling stops there.
  const finished = useRef(false);

  const show = useCallback((reply: MyRounds, receivedAt: number, kept: boolean) => {
    const key = phaseKey(reply);
    finished.current = reply.status === "finished";
    if (lastKey.current !== null && lastKey.current !== key) buzz();
    lastKey.current = key;
    setState({ status: "ready", reply, receivedAt, kept });
  }, []);

  const load = useCallback(async () => {
    if (!link) return;
    let reply: Awaited<ReturnType<typeof myRounds>>;
    try {
      reply = await myRounds(link);
    } catch (error) {
      if (!(error instanceof CallFailed)) throw error;
      setState((s) =>
        s.status === "ready"
          ? { ...s, kept: true }
          : s.status === "loading"
            ? s
            : { status: "unavailable", reason: "offline" },
      );
      return false;
    }
    if (!reply.ok) {
      // A refused link is said once, by the partner grid below; the night simply does not show.
      setState((s) =>
        reply.status === 403 || s.status !== "ready"
          ? { status: "unavailable", reason: reply.status === 403 ? "link" : "error" }
          : { ...s, kept: true },
      );
      return true;
    }
    const receivedAt = Date.now();
    show(reply.data, receivedAt, false);
    // The partners' photos too, so a reload with no network shows faces, not broken images.
    void keepForOffline(
      "images",
      reply.data.schedule.flatMap((e) => (e.partner ? [imageUrl(e.partner.image_name)] : [])),
    );
    await (await offlineDb())
      .put("myRounds", {
        key: keptKey(link),
        eventID: link.eventID,
        userID: link.userID,
        reply: reply.data,
        receivedAt,
      })
      .catch(() => undefined);
    return true;
  }, [link, show]);

  useEffect(() => {
    if (!link) return;
    let live = true;
    lastKey.current = null;
    finished.current = false;
    setState({ status: "loading" });
    void (async () => {
      const kept = await readKept(link);
      if (live && kept) {
        setState((s) => {
          if (s.status === "ready") return s;
          lastKey.current = phaseKey(kept.reply);
          return { status: "ready", reply: kept.reply, receivedAt: kept.receivedAt, kept: true };
        });
      }
      if (!live) return;
      const reached = await load();
      if (live && !reached && !kept) setState({ status: "unavailable", reason: "offline" });
    })();
    let busy = false;
    const poll = async () => {
      if (busy || finished.current || !navigator.onLine) return;
      busy = true;
      try {
        if (live) await load();
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => void poll(), pollMs);
    const onOnline = () => void poll();
    globalThis.addEventListener("online", onOnline);
    return () => {
      live = false;
      clearInterval(timer);
      globalThis.removeEventListener("online", onOnline);
    };
  }, [link, load, pollMs]);

  return { state, reload: load };
}
