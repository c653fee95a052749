import { api, CallFailed, send } from "../../lib/api.ts";
import { useReply } from "../../lib/use-reply.ts";
import { type FeedbackLink, INVALID_LINK } from "./link.ts";
import type { FeedbackReport } from "./types.ts";

export const getFeedback = (link: FeedbackLink) =>
  send(api["get-feedback"].$post({ json: { eventID: link.eventID, userID: link.userID, token: link.token } }));

export type ReportState =
  | { status: "error"; message: string }
  /** The results are not released yet (409): when they will be, if the server said. */
  | { status: "not-yet"; resultsAt?: number; timeZone?: string }
  | { status: "ready"; report: FeedbackReport };

export function useFeedbackReport(link: FeedbackLink | null) {
  return useReply(link && `${link.eventID}:${link.userID}:${link.token}`, {
    async load(): Promise<ReportState> {
      if (!link) return { status: "error", message: INVALID_LINK };
      const reply = await getFeedback(link);
      if (reply.ok) return { status: "ready", report: reply.data };
      if (reply.status === 403) return { status: "error", message: INVALID_LINK };
      if (reply.data.code === "results_not_yet") {
        const at = reply.data.resultsAt ? Date.parse(reply.data.resultsAt) : Number.NaN;
        return Number.isNaN(at) || !reply.data.timeZone
          ? { status: "not-yet" }
          : { status: "not-yet", resultsAt: at, timeZone: reply.data.timeZone };
      }
      return { status: "error", message: `We couldn't load your matches: ${reply.data.error ?? "please try again."}` };
    },
    failed(error): ReportState {
      return {
        status: "error",
        message:
          error instanceof CallFailed
            ? "You seem to be offline. Your matches will show once you're connected."
            : "We couldn't load your matches: please try again.",
      };
    },
  });
}
