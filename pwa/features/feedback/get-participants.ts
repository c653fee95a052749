import { useCallback, useEffect, useRef, useState } from "react";
import { api, CallFailed, type ErrorReply, imageUrl, send } from "../../lib/api.ts";
import { keepForOffline } from "../../lib/offline-cache.ts";
import { type FeedbackValue, offlineDb, ticketKey } from "../../lib/offline-db.ts";
import { type FeedbackLink, INVALID_LINK } from "./link.ts";
import type { Partner } from "./types.ts";

export const getParticipants = (link: FeedbackLink) =>
  send(api["get-participants"].$post({ json: { userID: link.userID, eventID: link.eventID, token: link.token } }));

/** Once the results are out: when ratings closed, on which clock, and the guest's own report. */
export type RatingsClosed = { at: number; timeZone: string; reportPath: string };

export type PartnersState =
  | { status: "loading" }
  | { status: "error"; message: string }
  | {
      status: "ready";
      partners: Partner[];
      /** The night offers Friend beside Date and No (kept offline with the partners). */
      offersFriend: boolean;
      offline: boolean;
      /** What the server holds for each partner (absent when offline): the choice that stands. */
      saved: Record<number, FeedbackValue>;
      closed: RatingsClosed | null;
    };

const partnersKey = (link: FeedbackLink) => ticketKey(link.eventID, link.userID);

async function cachedPartners(link: FeedbackLink): Promise<{ partners: Partner[]; offersFriend: boolean } | undefined> {
  try {
    const kept = await (await offlineDb()).get("partners", partnersKey(link));
    return kept ? { partners: kept.partners, offersFriend: kept.offersFriend ?? false } : undefined;
  } catch {
    return undefined;
  }
}

function messageFor(status: number, data: ErrorReply): string {
  if (status === 403) return INVALID_LINK;
  if (data.code === "feedback_not_open") return "Rating opens when the event starts. Please come back then.";
  return `We couldn't load your partners: ${data.error || "please try again."}`;
}

/**
 * The partners of an opened feedback page. Every successful load is kept on the device, so on the
 * venue's patchy Wi-Fi (or a reload with none) the page still shows them.
 */
export function usePartners(link: FeedbackLink | null, refreshKey?: string) {
  const [state, setState] = useState<PartnersState>({ status: "loading" });
  const load = useCallback(async () => {
    if (!link) return;
    setState({ status: "loading" });
    await fetchPartners(link, setState);
  }, [link]);
  useEffect(() => {
    void load();
  }, [load]);
  // A new round adds a partner: fetch the list again, keeping the shown one until the answer.
  const seenKey = useRef(refreshKey);
  useEffect(() => {
    if (!link || seenKey.current === refreshKey) return;
    const first = seenKey.current === undefined;
    seenKey.current = refreshKey;
    // The first key arrives with the page's first load, which is already under way.
    if (first) return;
    void fetchPartners(link, setState, true);
  }, [link, refreshKey]);
  // Asked again without a loading flash, e.g. after a tap the server refused as too late.
  const refresh = useCallback(async () => {
    if (link) await fetchPartners(link, setState, true);
  }, [link]);
  return { state, reload: load, refresh };
}

/** One load of the partners; `quiet` (a refresh of a list on screen) changes nothing when it fails. */
async function fetchPartners(link: FeedbackLink, setState: (state: PartnersState) => void, quiet = false) {
  let failure: string;
  try {
    const reply = await getParticipants(link);
    if (reply.ok) {
      const { participants, ratingsClosedAt, timeZone, reportPath, offersFriend } = reply.data;
      const partners = participants.map(({ myChoice: _, ...p }) => p);
      const saved: Record<number, FeedbackValue> = {};
      for (const p of participants) if (p.myChoice) saved[p.id] = p.myChoice;
      const closed = ratingsClosedAt && reportPath ? { at: Date.parse(ratingsClosedAt), timeZone, reportPath } : null;
      setState({ status: "ready", partners, offersFriend, offline: false, saved, closed });
      // The thumbnails too, so a reload without a network still shows faces, not broken images.
      void keepForOffline(
        "images",
        partners.map((p) => imageUrl(p.image_name)),
      );
      await keepPartners(link, partners, offersFriend).catch(() => undefined);
      return;
    }
    if (quiet) return;
    if (reply.status < 500) {
      setState({ status: "error", message: messageFor(reply.status, reply.data) });
      return;
    }
    failure = "The server is having trouble right now. Please try again in a moment.";
  } catch (error) {
    if (!(error instanceof CallFailed)) throw error;
    if (quiet) return;
    failure = "You seem to be offline, and your partners haven't been saved on this device yet.";
  }
  const cached = await cachedPartners(link);
  setState(
    cached
      ? { status: "ready", ...cached, offline: true, saved: {}, closed: null }
      : { status: "error", message: failure },
  );
}

/** Keeps the partners for offline use, and the count of late taps the queue recorded beside them. */
async function keepPartners(link: FeedbackLink, partners: Partner[], offersFriend: boolean) {
  const tx = (await offlineDb()).transaction("partners", "readwrite");
  const kept = await tx.store.get(partnersKey(link));
  await tx.store.put({ key: partnersKey(link), partners, offersFriend, savedAt: Date.now(), lateTaps: kept?.lateTaps });
  await tx.done;
}
