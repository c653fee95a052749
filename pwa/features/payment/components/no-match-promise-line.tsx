import { NO_MATCH_PROMISE } from "../../../../common/no-match-promise.ts";
import { useReply } from "../../../lib/use-reply.ts";
import { getEvent } from "../../events/index.ts";

type Promised = { status: "ready"; promised: boolean } | { status: "error" };

/**
 * The no-match promise on the booking's confirmation (issue 52), when the night makes it: read from
 * the event, so the line says what the organiser set. Nothing shows while it loads or if it cannot.
 */
export function NoMatchPromiseLine({ eventID }: { eventID: number }) {
  const { state } = useReply<Promised, number>(eventID, {
    load: async (id) => {
      const reply = await getEvent(id);
      return reply.ok ? { status: "ready", promised: reply.data.noMatchPromise } : { status: "error" };
    },
    failed: () => ({ status: "error" }),
  });
  return state.status === "ready" && state.promised ? (
    <p className="notice no-match-promise">{NO_MATCH_PROMISE}</p>
  ) : null;
}
