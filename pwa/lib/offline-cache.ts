/**
 * Puts same-origin GET responses into a service-worker runtime cache from the page, for things
 * seen before the service worker took control (the first visit) or that must be there offline
 * (a feedback page's partner photos). The service worker's routes then answer from these caches.
 */
export async function keepForOffline(cacheName: "images" | "events", urls: string[]): Promise<void> {
  if (typeof caches === "undefined" || urls.length === 0) return;
  try {
    const cache = await caches.open(cacheName);
    await Promise.all(
      urls.map(async (url) => {
        if (!(await cache.match(url))) await cache.add(url).catch(() => undefined);
      }),
    );
  } catch {
    // Private mode or storage pressure: offline copies are a bonus, never a failure.
  }
}

/** Puts a response already fetched into a runtime cache: no second request for what is shown. */
export async function keepResponse(cacheName: "images", url: string, response: Response): Promise<void> {
  if (typeof caches === "undefined") return;
  try {
    await (await caches.open(cacheName)).put(url, response);
  } catch {
    // Private mode or storage pressure: offline copies are a bonus, never a failure.
  }
}
