import { useCallback, useEffect, useState } from "react";
import { api, CallFailed, send } from "../../lib/api.ts";
import { type FeedbackLink, INVALID_LINK } from "./link.ts";
import type { FeedbackReport } from "./types.ts";

export const getFeedback = (link: FeedbackLink) =>
  send(api["get-feedback"].$post({ json: { eventID: link.eventID, userID: link.userID, token: link.token } }));

export type ReportState =
  | { status: "loading" }
  | { status: "error"; message: string }
  /** The results are not released yet (409): when they will be, if the server said. */
  | { status: "not-yet"; resultsAt?: number; timeZone?: string }
  | { status: "ready"; report: FeedbackReport };

export function useFeedbackReport(link: FeedbackLink | null) {
  const [state, setState] = useState<ReportState>({ status: "loading" });
  const load = useCallback(async () => {
    if (!link) return;
    setState({ status: "loading" });
    try {
      const reply = await getFeedback(link);
      if (reply.ok) {
        setState({ status: "ready", report: reply.data });
      } else if (reply.status === 403) {
        setState({ status: "error", message: INVALID_LINK });
      } else if (reply.data.code === "results_not_yet") {
        const at = reply.data.resultsAt ? Date.parse(reply.data.resultsAt) : Number.NaN;
        setState(
          Number.isNaN(at) || !reply.data.timeZone
            ? { status: "not-yet" }
            : { status: "not-yet", resultsAt: at, timeZone: reply.data.timeZone },
        );
      } else {
        setState({
          status: "error",
          message: `We couldn't load your matches: ${reply.data.error ?? "please try again."}`,
        });
      }
    } catch (error) {
      if (!(error instanceof CallFailed)) throw error;
      setState({ status: "error", message: "You seem to be offline. Your matches will show once you're connected." });
    }
  }, [link]);
  useEffect(() => {
    void load();
  }, [load]);
  return { state, reload: load };
}
