import { useEffect, useRef } from "react";
import { Link } from "react-router-dom";
import { resultsWhen } from "../../../../common/results-time.ts";
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
  /** Told whether ratings are closed (the results are out), so the page's header can say so. */
  onClosed?: (closed: boolean) => void;
};

/** The rating grid of /ParticipantFeedback: partners, their Like / Dislike, and how many taps wait. */
export function PartnerGrid({ link, arrange, refreshKey, onClosed }: Props) {
  const { state, reload, refresh } = usePartners(link, refreshKey);
  const isClosed = state.status === "ready" && state.closed !== null;
  useEffect(() => {
    onClosed?.(isClosed);
  }, [isClosed, onClosed]);
  const { choices, pending, late, notices, tap, dismiss } = usePartnerFeedback(link);
  // A tap refused as too late: ask the server what stands, and that ratings are closed.
  const lateSeen = useRef(late);
  useEffect(() => {
    if (late > lateSeen.current) void refresh();
    lateSeen.current = late;
  }, [late, refresh]);

  if (!link) {
    return (
      <p className="notice error" role="alert">
        {INCOMPLETE_LINK}
      </p>
    );
  }
  if (state.status === "loading" || state.status === "idle") {
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
  const closed = state.closed;
  // Once ratings closed, the server's choices are the ones that count: a tap it refused is rolled
  // back to them. Before that, this phone's newest tap shows at once, else what the server holds.
  const shown = (id: number) => (closed ? state.saved[id] : (choices[id] ?? state.saved[id]));
  return (
    <>
      {closed ? (
        <div className="notice feedback-closed" role="status">
          <p>Ratings closed at {resultsWhen(closed.at, closed.timeZone, Date.now())}; your earlier choices stand.</p>
          <Link className="button primary" to={closed.reportPath}>
            See your matches
          </Link>
        </div>
      ) : late > 0 ? null : (
        // A refused tap means ratings closed: never "All choices saved" beside it while that loads.
        <SyncStatus pending={pending} />
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
              offersFriend={state.offersFriend}
              choice={shown(partner.id)}
              disabled={closed !== null}
              onChoose={(value) => void tap(partner.id, value)}
            />
          ))}
        </div>
      )}
    </>
  );
}
