/// <reference lib="webworker" />
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { clientsClaim } from "workbox-core";
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { RangeRequestsPlugin } from "workbox-range-requests";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from "workbox-strategies";
import { CHECK_IN_SYNC_TAG, flushCheckIns } from "./features/door/check-in-queue.ts";
import { FEEDBACK_SYNC_TAG, flushQueue as flushFeedback } from "./features/feedback/tap-queue.ts";
import type { FlushQueueMessage } from "./lib/offline-queue.ts";
import { SERVED_OFFLINE_HEADER } from "./lib/served-offline.ts";

declare let self: ServiceWorkerGlobalScope;

// The app shell: every built file, versioned by the build, so the app opens with no network.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Any navigation (/, /tickets, /ParticipantFeedback?…) gets the shell; the router does the rest.
// /api is excluded so a navigation to an API URL (the local checkout pages) always hits the server.
// No route here matches the room's stream (/api/round-events, docs/decisions/038-room-stream.md):
// its EventSource request goes to the network untouched and is never cached.
registerRoute(new NavigationRoute(createHandlerBoundToURL("/index.html"), { denylist: [/^\/api\//] }));

// NetworkFirst reads its cache only when the network failed or was too slow: such answers are marked,
// so the page can say it is showing saved data even where navigator.onLine still says "online".
const markServedOffline = {
  cachedResponseWillBeUsed: async ({ cachedResponse }: { cachedResponse?: Response }) => {
    if (!cachedResponse) return cachedResponse;
    const headers = new Headers(cachedResponse.headers);
    headers.set(SERVED_OFFLINE_HEADER, "1");
    return new Response(cachedResponse.body, {
      status: cachedResponse.status,
      statusText: cachedResponse.statusText,
      headers,
    });
  },
};

// The event list and event details: fresh from the network when it answers within 3 seconds (a
// stale "Book Tickets" on a started or sold-out event would waste a whole booking attempt), from
// the cache otherwise. Only these public GETs are cached; POSTs and admin calls never match a route.
registerRoute(
  ({ url, request }) =>
    request.method === "GET" &&
    url.origin === self.location.origin &&
    (url.pathname === "/api/get-events" || /^\/api\/get-event\/\d+$/.test(url.pathname)),
  new NetworkFirst({
    cacheName: "events",
    networkTimeoutSeconds: 3,
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), markServedOffline],
  }),
);

registerRoute(
  ({ url }) => url.pathname === "/api/public-config",
  new StaleWhileRevalidate({ cacheName: "config", plugins: [new CacheableResponsePlugin({ statuses: [200] })] }),
);

// Event pictures and partner photos never change under a name, so the cache answers first.
registerRoute(
  ({ url, request }) =>
    request.method === "GET" &&
    url.origin === self.location.origin &&
    (url.pathname.startsWith("/api/images/") || url.pathname.startsWith("/api/uploads/images/")),
  new CacheFirst({
    cacheName: "images",
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 60 * 60 * 24 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

// The landing page's video: cached once seen, but not part of the install download.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith("/landing/"),
  new CacheFirst({
    cacheName: "landing",
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 6 }),
      // Safari asks for video in byte ranges; answer them from the cached whole file.
      new RangeRequestsPlugin(),
    ],
  }),
);

// The page that installed us fetched the event list before we controlled it, so that copy never
// reached our cache. Fetch it once now, so "one online visit" is enough. Its pictures are not fetched
// here: the page keeps each as its card shows it (pwa/features/events/card-picture.ts), and fetching
// the originals again cost every visitor megabytes (issue 46).
self.addEventListener("activate", (event) => {
  event.waitUntil(warmEventCaches().catch(() => undefined));
});

async function warmEventCaches() {
  const response = await fetch("/api/get-events", { credentials: "same-origin" });
  if (!response.ok) return;
  await (await caches.open("events")).put("/api/get-events", response);
}

self.addEventListener("message", (event) => {
  if (event.data?.type === "SKIP_WAITING") void self.skipWaiting();
});

// Background Sync, one tag per offline queue (pwa/lib/offline-queue.ts): a page registers its tag
// when entries are waiting; the browser wakes us when the network is back. Open pages are asked to
// flush (so their counters update); with every page closed, the worker sends the queue itself from
// IndexedDB (feedback taps carry their link token, check-ins ride on the admin session cookie).
const queues: Record<string, () => Promise<void>> = {
  [FEEDBACK_SYNC_TAG]: () => flushFeedback(),
  [CHECK_IN_SYNC_TAG]: () => flushCheckIns(),
};

self.addEventListener("sync", (event: Event) => {
  const syncEvent = event as Event & { tag: string; waitUntil(p: Promise<unknown>): void };
  const flush = queues[syncEvent.tag];
  if (!flush) return;
  syncEvent.waitUntil(
    self.clients.matchAll({ type: "window" }).then(async (clients) => {
      if (clients.length === 0) {
        await flush();
        return;
      }
      const message: FlushQueueMessage = { type: "FLUSH_QUEUE", tag: syncEvent.tag };
      for (const client of clients) client.postMessage(message);
    }),
  );
});

clientsClaim();
