import { eventOfReply } from "../../../common/event-names.ts";
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
      // Each card's time and early-bird day come written by the server (`startsAtText`,
      // `earlyBirdUntilText`): the page builds no Intl formatter, whose first costs tens of milliseconds
      // of the main thread (bench/README.md, "What holds `/` under 98").
      const reply = await getEvents();
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
