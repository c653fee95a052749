import { cardPictureUrl, cardPictureWidth } from "../../../common/image-widths.ts";
import { afterFirstLoad } from "../../lib/after-first-load.ts";
import { imageUrl } from "../../lib/api-reply.ts";
import { keepResponse } from "../../lib/offline-cache.ts";

/**
 * An event card's picture, fetched once at the width the card shows (common/image-widths.ts) and
 * kept, that same response, in the `images` cache the service worker answers from offline. A copy
 * already kept is read from the cache, so a picture is never asked for twice: not by the card, not by
 * the service worker, and never as the original JPEG (issue 46).
 */
export function cardPictureAddress(name: string): string {
  const density = typeof window === "undefined" ? 1 : window.devicePixelRatio || 1;
  return cardPictureUrl(imageUrl(name), cardPictureWidth(density));
}

// A card and keepCardPictures may ask for the same picture at once: one fetch answers both, until
// the copy is in the cache.
const inFlight = new Map<string, Promise<Blob | null>>();

/** The picture's bytes, from the offline copy or the network; null when neither has it. */
export function cardPicture(name: string): Promise<Blob | null> {
  const url = cardPictureAddress(name);
  let pending = inFlight.get(url);
  if (!pending) {
    pending = load(url, () => inFlight.delete(url));
    inFlight.set(url, pending);
  }
  return pending;
}

async function load(url: string, kept: () => void): Promise<Blob | null> {
  let keeping: Promise<void> | undefined;
  try {
    const copy = await fromCache(url);
    if (copy) return copy;
    // Takes the home page's preload of the first picture (api/lib/static-files.ts) when it matches.
    const response = await fetch(url);
    if (!response.ok) return null;
    // Shown without waiting for the cache's write: the first card's picture is the home page's
    // largest paint.
    keeping = keepResponse("images", url, response.clone());
    return await response.blob();
  } catch {
    return null;
  } finally {
    void Promise.resolve(keeping).then(kept);
  }
}

async function fromCache(url: string): Promise<Blob | null> {
  if (typeof caches === "undefined") return null;
  try {
    const hit = await caches.match(url);
    return hit ? await hit.blob() : null;
  } catch {
    return null;
  }
}

/**
 * Once the page has loaded and gone quiet (pwa/lib/after-first-load.ts), keeps the pictures of cards
 * not yet scrolled to, one at a time, so one online visit is enough to see every card offline; each
 * is still fetched once, as its card shows it. Not sooner: their fetches and cache writes would share
 * the first load's network and main thread with the first card's picture.
 */
export function keepCardPictures(names: string[]) {
  afterFirstLoad(async () => {
    for (const name of names) await cardPicture(name);
  });
}
