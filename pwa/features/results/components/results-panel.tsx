import { useState } from "react";
import { choicesOf } from "../../../../common/choices.ts";
import { formatVenueTime } from "../../../../common/time-zone.ts";
import { useConfirm } from "../../../components/ui/confirm-dialog.tsx";
import { ErrorNotice } from "../../../lib/error-notice.tsx";
import type { Choice, Scorecard } from "../results-api.ts";
import { useResults } from "../use-results.ts";
import "../results.css";

type Props = {
  eventID: number | null;
  timeZone: string;
  canChange: boolean;
  /** The organiser's; a host types in paper cards but does not release (docs/decisions/022-host-access.md). */
  canRelease: boolean;
  /** Changes when the room's stream says ratings arrived: the count is read again, quietly. */
  refreshKey?: number;
};

/**
 * The Rounds tab's results: how many guests have rated everyone they met, **Release results**, and
 * the paper scorecards, where the organiser picks a guest who rated on paper and types in their Like
 * or Dislike for each person they met (docs/decisions/021-results.md).
 */
export function ResultsPanel({ eventID, timeZone, canChange, canRelease, refreshKey }: Props) {
  const { state, busy, problem, dismissProblem, reload, release, choose } = useResults(eventID, refreshKey);
  const { confirm, dialog } = useConfirm();
  const [guestID, setGuestID] = useState<number | null>(null);

  if (state.status === "idle") return null;
  if (state.status === "loading") {
    return (
      <p role="status" className="admin-loading">
        Loading the ratings...
      </p>
    );
  }
  if (state.status === "error") return <ErrorNotice message={state.message} onRetry={() => void reload()} />;

  const { ratings, released, resultsAt, people, offersFriend } = state.ratings;
  const guest = people.find((p) => p.id === guestID) ?? null;
  const onRelease = async () => {
    const go = await confirm({
      title: "Release the results now?",
      lines: [
        "Ratings close, and every guest is texted their matches with a link to see them.",
        "Choices that arrive after this are not counted.",
      ],
      confirmLabel: "Release results",
    });
    if (go) await release();
  };

  return (
    <section className="rounds-card results-panel" aria-labelledby="results-title">
      <h2 id="results-title">Results</h2>
      <p className="results-progress" role="status">
        Ratings: {ratings.done} of {ratings.total} done
      </p>
      <p>
        {released
          ? "Results released: guests have their matches."
          : `Results go out at ${formatVenueTime(Date.parse(resultsAt), timeZone)}.`}
      </p>
      {problem ? (
        <div className="notice error" role="alert">
          <p>{problem}</p>
          <button type="button" className="button" onClick={dismissProblem}>
            Dismiss
          </button>
        </div>
      ) : null}
      {released || !canRelease ? null : (
        <button
          type="button"
          className="button primary results-release"
          disabled={!canChange || busy !== null}
          onClick={() => void onRelease()}
        >
          Release results
        </button>
      )}

      <h3>Paper scorecards</h3>
      {people.length === 0 ? (
        <p className="empty">Paper scorecards can be typed in once the event has started.</p>
      ) : (
        <div className="field">
          <label htmlFor="scorecard-guest">Guest</label>
          <select
            id="scorecard-guest"
            value={guest?.id ?? ""}
            onChange={(e) => setGuestID(e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">Choose a guest who rated on paper</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
                {p.done ? " (done)" : ""}
              </option>
            ))}
          </select>
        </div>
      )}
      {guest ? (
        <ScorecardRows
          guest={guest}
          offersFriend={offersFriend}
          disabled={!canChange || released}
          busy={busy}
          onChoose={(toUserID, choice) => void choose(guest.id, toUserID, choice)}
        />
      ) : null}
      {dialog}
    </section>
  );
}

function ScorecardRows({
  guest,
  offersFriend,
  disabled,
  busy,
  onChoose,
}: {
  guest: Scorecard;
  offersFriend: boolean;
  disabled: boolean;
  busy: string | null;
  onChoose(toUserID: number, choice: Choice): void;
}) {
  if (guest.partners.length === 0) return <p className="empty">{guest.name} has nobody to rate.</p>;
  return (
    <ul className="scorecard" aria-label={`People ${guest.name} met`}>
      {guest.partners.map((partner) => {
        const nameId = `scorecard-${guest.id}-${partner.id}`;
        const noteId = `${nameId}-note`;
        const rowBusy = busy === `${guest.id}:${partner.id}`;
        // The guest's own choice stands: a card cannot change it (docs/decisions/021-results.md). A host
        // sees that a pair is rated, never the choice (022), so "Rated" says it when nothing is pressed.
        const byGuest = partner.by === "guest";
        const note = byGuest
          ? "Rated on their phone"
          : partner.rated && partner.feedback === null
            ? "Paper card entered"
            : null;
        return (
          <li key={partner.id} className="scorecard-row">
            <span className="scorecard-name">
              <span id={nameId}>{partner.username}</span>
              {note ? (
                <span id={noteId} className="scorecard-note">
                  {note}
                </span>
              ) : null}
            </span>
            {choicesOf(offersFriend).map(({ value, label }) => (
              <button
                key={value}
                type="button"
                className={`button scorecard-${value}`}
                aria-pressed={partner.feedback === value}
                aria-describedby={note ? `${nameId} ${noteId}` : nameId}
                disabled={disabled || rowBusy || byGuest}
                onClick={() => onChoose(partner.id, value)}
              >
                {label}
              </button>
            ))}
          </li>
        );
      })}
    </ul>
  );
}
