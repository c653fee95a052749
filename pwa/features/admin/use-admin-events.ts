import { CallFailed } from "../../lib/api.ts";
import { useReply } from "../../lib/use-reply.ts";
import { type AdminEventSummary, listEvents } from "./admin-api.ts";

type Shown = { status: "error"; message: string } | { status: "ready"; events: AdminEventSummary[] };

/** Every event, ended ones included (an organiser still refunds and reviews them). */
export function useAdminEvents() {
  const { state, refresh } = useReply("events", {
    async load(): Promise<Shown> {
      const reply = await listEvents();
      if (!reply.ok || !Array.isArray(reply.data)) return { status: "error", message: "Couldn't load the events." };
      return { status: "ready", events: reply.data };
    },
    failed(error): Shown {
      console.warn(error);
      return {
        status: "error",
        message:
          error instanceof CallFailed ? "Couldn't reach the server to load the events." : "Couldn't load the events.",
      };
    },
  });
  // Reading again (after a save, or Try again) keeps the list on screen until the answer comes, as it did
  // before useReply: a picker that went back to "Loading events..." under the organiser's hand lost their
  // choice, and the User Details tab once stayed empty after an Edit's save (e2e/waitlist.test.ts).
  return { state, reload: refresh };
}
