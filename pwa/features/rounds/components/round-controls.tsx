import { useCallback, useState } from "react";
import { ROOM_ANNOUNCEMENT } from "../../../../common/guest-message.ts";
import { formatClock, serverTime, spokenTimeLeft, toMs, useNow } from "../../../lib/round-clock.ts";
import { projectClock, roundOf } from "../console-view.ts";
import type { RoundsState, RunAction, ShownClock } from "../rounds-api.ts";
import type { Busy } from "../use-rounds.ts";
import { FullScreenClock } from "./full-screen-clock.tsx";

type Props = {
  rounds: RoundsState;
  receivedAt: number;
  /** False offline: the buttons wait for the network; the clock does not. */
  canControl: boolean;
  busy: Busy;
  /** `shown` is the round and phase on the screen at the press, so the server can refuse a stale one. */
  onRun(action: RunAction, shown: ShownClock): void;
  /** **Announce**: true once the server took it ("" takes it down). */
  onAnnounce?(text: string): Promise<boolean>;
};

/** The night's clock in large type and the host's buttons: the part of the console used all night. */
export function RoundControls({ rounds, receivedAt, canControl, busy, onRun, onAnnounce }: Props) {
  const [fullScreen, setFullScreen] = useState(false);
  const [draft, setDraft] = useState("");
  const ticking = rounds.status === "running" && rounds.phaseEndsAt !== null;
  // The last tick may predate this answer: never read the clock as earlier than its arrival.
  const now = Math.max(useNow(ticking), receivedAt);
  const at = serverTime({ serverNow: rounds.serverNow, receivedAt }, now);
  // A paused clock stands at what was left when the server answered; a running one plays on.
  const clock = projectClock(rounds, at);
  const from = rounds.status === "paused" ? (toMs(rounds.serverNow) ?? at) : at;
  const left = clock.endsAt === null ? null : Math.max(0, clock.endsAt - from);
  const total = rounds.rounds.length;
  const closeFullScreen = useCallback(() => setFullScreen(false), []);

  let title: string;
  let phase: string | null = null;
  if (clock.status === "planned") {
    title = total === 1 ? "1 round planned" : `${total} rounds planned`;
  } else if (clock.status === "finished") {
    title = "The rounds are finished";
  } else {
    title = roundOf(clock.current ?? 1, total);
    phase = clock.phase === "break" ? "Changeover: movers change tables" : "Round in progress";
    if (clock.status === "paused") phase = "Paused";
  }
  const time = left === null ? null : formatClock(left);
  const button = (action: RunAction, label: string, className = "button") => (
    <button
      type="button"
      className={className}
      disabled={!canControl || busy !== null}
      aria-busy={busy === action || undefined}
      onClick={() => onRun(action, { current: clock.current, phase: clock.phase })}
    >
      {label}
    </button>
  );
  const live = clock.status === "running" || clock.status === "paused";
  // The server's announcement belongs to the round it answered in: once this screen's clock has moved
  // on to the next round (offline too), it is down.
  const announcement = live && clock.current === rounds.current ? rounds.announcement : null;
  const nextLine =
    clock.current !== null && clock.current < total ? `Round ${clock.current + 1} starts in` : "The rounds end in";

  return (
    <section className="rounds-card rounds-now" aria-labelledby="rounds-now-title">
      <h2 id="rounds-now-title" className="rounds-now-title">
        {title}
      </h2>
      {phase ? <p className={`rounds-phase${clock.status === "paused" ? " paused" : ""}`}>{phase}</p> : null}
      {time ? (
        <>
          <p className="rounds-time" role="timer" aria-label={`Time left: ${time}`}>
            {time}
          </p>
          <p className="sr-only" aria-live="polite">
            {clock.status === "paused" ? "The clock is paused" : `${phase ?? ""}. ${spokenTimeLeft(left ?? 0)}`}
          </p>
        </>
      ) : null}
      <div className="rounds-controls">
        {clock.status === "planned" ? button("start", "Start rounds", "button primary rounds-start") : null}
        {clock.status === "running" ? button("pause", "Pause") : null}
        {clock.status === "paused" ? button("resume", "Resume", "button primary") : null}
        {/* While the event is started a finished night can come back: its last round runs again. */}
        {clock.status === "finished" && rounds.eventStatus === "started" ? button("resume", "Resume") : null}
        {live ? button("extend", "+1 min") : null}
        {live ? button("next", "Next") : null}
        {live ? (
          <button type="button" className="button rounds-fs-open" onClick={() => setFullScreen(true)}>
            Full screen
          </button>
        ) : null}
        {/* Last and on its own row, away from Next: a stray tap here would end the night. */}
        {live ? button("finish", "Finish rounds", "button rounds-finish") : null}
      </div>
      {live && onAnnounce ? (
        <AnnounceForm
          draft={draft}
          setDraft={setDraft}
          announcement={announcement}
          disabled={!canControl || busy !== null}
          busy={busy === "announce"}
          onAnnounce={onAnnounce}
        />
      ) : null}
      {fullScreen && live ? (
        <FullScreenClock
          round={roundOf(clock.current ?? 1, total)}
          time={time ?? ""}
          onBreak={clock.phase === "break"}
          next={nextLine}
          paused={clock.status === "paused"}
          announcement={announcement}
          onClose={closeFullScreen}
        />
      ) : null}
    </section>
  );
}

/** **Announce**: a line for the room until the next round, and Take down for the one shown. */
function AnnounceForm(props: {
  draft: string;
  setDraft(draft: string): void;
  announcement: string | null;
  /** Offline, or another control on its way. */
  disabled: boolean;
  busy: boolean;
  onAnnounce(text: string): Promise<boolean>;
}) {
  const { draft, setDraft, announcement, onAnnounce } = props;
  return (
    <form
      className="rounds-announce"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await onAnnounce(draft)) setDraft("");
      }}
    >
      {announcement ? (
        <p className="rounds-announce-now" role="status">
          On the screen and the phones: {announcement}
        </p>
      ) : null}
      <label htmlFor="rounds-announce-text">Announcement for the room (until the next round)</label>
      <div className="rounds-announce-row">
        <input
          id="rounds-announce-text"
          value={draft}
          maxLength={ROOM_ANNOUNCEMENT.maxLength}
          onChange={(e) => setDraft(e.target.value)}
          placeholder="Drinks are on the bar"
        />
        <button
          type="submit"
          className="button"
          disabled={props.disabled || draft.trim() === ""}
          aria-busy={props.busy || undefined}
        >
          Announce
        </button>
        {announcement ? (
          <button type="button" className="button" disabled={props.disabled} onClick={() => void onAnnounce("")}>
            Take down
          </button>
        ) : null}
      </div>
    </form>
  );
}
