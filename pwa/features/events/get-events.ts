import { eventOfReply } from "../../../common/event-names.ts";
import { formatVenueTime } from "../../../common/time-zone.ts";
import type { api, Ok } from "../../lib/api.ts";
import { CallFailed, getJson } from "../../lib/api-reply.ts";
import { useReply } from "../../lib/use-reply.ts";
import { keepCardPictures } from "./card-picture.ts";
import { isListed } from "./format.ts";
import type { EventView } from "./types.ts";

// Without hono/client: this is the home page's call (pwa/lib/api-reply.ts).
export const getEvents = () => getJson<Ok<(typeof api)["get-events"]["$get"]>>("/api/get-events");

const FAILED = "We couldn't load the events. Please try again.";

type Shown = { status: "error"; message: string } | { status: "ready"; events: EventView[] };

/** The events the home page lists (see isListed), soonest first (the API sorts). */
export function useUpcomingEvents() {
  return useReply("events", {
    async load(): Promise<Shown> {
      const asked = getEvents();
      // A page's first Intl formatter costs some 50 ms of the main thread (ICU's set-up), whichever
      // it is: built while the list is on its way, not in the cards' render when it arrives
      // (bench/README.md, "The first load's main thread").
      formatVenueTime(0, "UTC");
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
