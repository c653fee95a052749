import { usePartnerFeedback } from "../feedback-store.ts";
import { usePartners } from "../get-participants.ts";
import { type FeedbackLink, INCOMPLETE_LINK } from "../link.ts";
import type { Partner } from "../types.ts";
import "../feedback.css";
import { ErrorNotice } from "../../../lib/error-notice.tsx";
import { PartnerCard } from "./partner-card.tsx";
import { SyncStatus } from "./sync-status.tsx";

type Props = {
  link: FeedbackLink | null;
  /** Puts the partners in the order shown (newest first during the rounds). */
  arrange?: (partners: Partner[]) => Partner[];
  /** A change (a new round started) fetches the partners again, without a loading flash. */
  refreshKey?: string;
};

/** The rating grid of /ParticipantFeedback: partners, their Like / Dislike, and how many taps wait. */
export function PartnerGrid({ link, arrange, refreshKey }: Props) {
  const { state, reload } = usePartners(link, refreshKey);
  const { choices, pending, late, notices, tap, dismiss } = usePartnerFeedback(link);

  if (!link) {
    return (
      <p className="notice error" role="alert">
        {INCOMPLETE_LINK}
      </p>
    );
  }
  if (state.status === "loading") {
    return (
      <div className="partner-grid" role="status" aria-busy="true" aria-label="Loading your partners">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="partner-card skeleton" />
        ))}
      </div>
    );
  }
  if (state.status === "error") {
    return <ErrorNotice message={state.message} onRetry={reload} />;
  }
  return (
    <>
      <SyncStatus pending={pending} />
      {late > 0 && (
        <p className="notice feedback-late" role="status">
          {late} {late === 1 ? "choice" : "choices"} arrived after ratings closed
        </p>
      )}
      {state.offline && (
        <p className="notice">You're offline: showing your partners saved on this device. Your taps will sync later.</p>
      )}
      {notices.map((n) => (
        <div key={n.id} className="notice error feedback-notice" role="alert">
          <p>{n.message}</p>
          <button type="button" className="button" onClick={() => dismiss(n.id)}>
            Dismiss
          </button>
        </div>
      ))}
      {state.partners.length === 0 ? (
        <p className="empty">No partners to rate yet</p>
      ) : (
        <div className="partner-grid">
          {(arrange ? arrange(state.partners) : state.partners).map((partner) => (
            <PartnerCard
              key={partner.id}
              partner={partner}
              choice={choices[partner.id]}
              onChoose={(value) => void tap(partner.id, value)}
            />
          ))}
        </div>
      )}
    </>
  );
}
