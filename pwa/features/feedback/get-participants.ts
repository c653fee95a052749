import { useEffect, useRef } from "react";
import { api, CallFailed, type ErrorReply, imageUrl, send } from "../../lib/api.ts";
import { keepForOffline } from "../../lib/offline-cache.ts";
import { type FeedbackValue, offlineDb, ticketKey } from "../../lib/offline-db.ts";
import { useReply } from "../../lib/use-reply.ts";
import { type FeedbackLink, INVALID_LINK } from "./link.ts";
import type { Partner } from "./types.ts";

export const getParticipants = (link: FeedbackLink) =>
  send(api["get-participants"].$post({ json: { userID: link.userID, eventID: link.eventID, token: link.token } }));

/** Once the results are out: when ratings closed, on which clock, and the guest's own report. */
export type RatingsClosed = { at: number; timeZone: string; reportPath: string };

export type PartnersState =
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
  const { state, reload, refresh } = useReply(link && partnersKey(link), {
    load: (): Promise<PartnersState> => fetchPartners(link),
    // Offline, or a 5xx (fetchPartners throws): the copy on the device if there is one, else this.
    failed: (error): PartnersState => ({
      status: "error",
      message:
        error instanceof CallFailed
          ? "You seem to be offline, and your partners haven't been saved on this device yet."
          : "The server is having trouble right now. Please try again in a moment.",
    }),
    async cached(): Promise<PartnersState | undefined> {
      const kept = link && (await cachedPartners(link));
      return kept ? { status: "ready", ...kept, offline: true, saved: {}, closed: null } : undefined;
    },
  });
  // A new round adds a partner: fetch the list again, keeping the shown one until the answer.
  const seenKey = useRef(refreshKey);
  useEffect(() => {
    if (!link || seenKey.current === refreshKey) return;
    const first = seenKey.current === undefined;
    seenKey.current = refreshKey;
    // The first key arrives with the page's first load, which is already under way.
    if (first) return;
    void refresh();
  }, [link, refreshKey, refresh]);
  // `refresh`: asked again without a loading flash, e.g. after a tap the server refused as too late;
  // when it fails, the list on screen stays.
  return { state, reload, refresh };
}

/** One load of the partners, kept on the device when it comes. */
async function fetchPartners(link: FeedbackLink | null): Promise<PartnersState> {
  if (!link) return { status: "error", message: INVALID_LINK };
  const reply = await getParticipants(link);
  if (!reply.ok) {
    if (reply.status < 500) return { status: "error", message: messageFor(reply.status, reply.data) };
    throw new Error(`the server answered ${reply.status}`);
  }
  const { participants, ratingsClosedAt, timeZone, reportPath, offersFriend } = reply.data;
  const partners = participants.map(({ myChoice: _, ...p }) => p);
  const saved: Record<number, FeedbackValue> = {};
  for (const p of participants) if (p.myChoice) saved[p.id] = p.myChoice;
  const closed = ratingsClosedAt && reportPath ? { at: Date.parse(ratingsClosedAt), timeZone, reportPath } : null;
  // The thumbnails too, so a reload without a network still shows faces, not broken images.
  void keepForOffline(
    "images",
    partners.map((p) => imageUrl(p.image_name)),
  );
  await keepPartners(link, partners, offersFriend).catch(() => undefined);
  return { status: "ready", partners, offersFriend, offline: false, saved, closed };
}

/** Keeps the partners for offline use, and the count of late taps the queue recorded beside them. */
async function keepPartners(link: FeedbackLink, partners: Partner[], offersFriend: boolean) {
  const tx = (await offlineDb()).transaction("partners", "readwrite");
  const kept = await tx.store.get(partnersKey(link));
  await tx.store.put({ key: partnersKey(link), partners, offersFriend, savedAt: Date.now(), lateTaps: kept?.lateTaps });
  await tx.done;
}
