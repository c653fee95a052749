import { eventOfReply } from "../../../common/event-names.ts";
import { DEFAULT_TIME_ZONE, formatUtcTime, venueDateAndClock, zoneAbbreviation } from "../../../common/time-zone.ts";
import type { api, Ok } from "../../lib/api.ts";
import { CallFailed, getJson } from "../../lib/api-reply.ts";
import { useReply } from "../../lib/use-reply.ts";
import { keepCardPictures } from "./card-picture.ts";
import { formatPrice, isListed } from "./format.ts";
import type { EventView } from "./types.ts";

// Without hono/client: this is the home page's call (pwa/lib/api-reply.ts).
export const getEvents = () => getJson<Ok<(typeof api)["get-events"]["$get"]>>("/api/get-events");

const FAILED = "We couldn't load the events. Please try again.";

type Shown = { status: "error"; message: string } | { status: "ready"; events: EventView[] };

/**
 * The cards' formatters, built while the list is on its way instead of in the cards' render when it
 * arrives. A page's first Intl formatter costs some 20 to 50 ms of the main thread (ICU's set-up),
 * whichever it is, and each further one a millisecond or two: each is built in a task of its own, after the one that asked for
 * the list, so none joins React's first draw in one long task (bench/README.md, "The first load's main
 * thread"). The zone is the one most venues keep; another venue's is built as its card draws.
 */
const WARM_UPS = [
  () => formatUtcTime(0),
  () => venueDateAndClock(0, DEFAULT_TIME_ZONE),
  () => zoneAbbreviation(0, DEFAULT_TIME_ZONE),
  () => formatPrice(0),
];
let warmed = false;
function warmUpFormatters() {
  if (warmed) return;
  warmed = true;
  const next = (i: number) => {
    const step = WARM_UPS[i];
    if (!step) return;
    setTimeout(() => {
      step();
      next(i + 1);
    }, 0);
  };
  next(0);
}

/** The events the home page lists (see isListed), soonest first (the API sorts). */
export function useUpcomingEvents() {
  return useReply("events", {
    async load(): Promise<Shown> {
      const asked = getEvents();
      warmUpFormatters();
      const reply = await asked;
      if (!reply.ok || !Array.isArray(reply.data)) return { status: "error", message: FAILED };
      const now = Date.now();
      // Mapped here, as the list arrives (from the network or the service worker's copy of an older
      // reply), to the names the screens read (common/event-wire.ts); isListed reads the reply's.
      const events = reply.data.filter((e) => isListed(e, now)).map(eventOfReply);
      // Lazy-loaded pictures further down the list may never have been fetched; keep them all, each as
      // its card shows it (never the original JPEG).
      keepCardPictures(events.map((e) => e.imageName));
      return { status: "ready", events };
    },
    failed(error): Shown {
      console.error(error);
      return {
        status: "error",
        message:
          error instanceof CallFailed
            ? "You seem to be offline, and the events haven't been saved on this device yet."
            : FAILED,
      };
    },
  });
}
