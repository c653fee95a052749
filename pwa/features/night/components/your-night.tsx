import type { ReactNode } from "react";
import { imageUrl } from "../../../lib/api.ts";
import { formatClock, remainingMs, spokenTimeLeft, useNow } from "../../../lib/round-clock.ts";
import type { MyRounds, MyRoundsPartner, NightState } from "../my-rounds.ts";
import { type NightMoment, nightView, roundOf } from "../night-view.ts";
import "../night.css";

type Ready = Extract<NightState, { status: "ready" }>;

/** The time left in the phase, ticking each second; a screen reader hears it once a minute. */
function Countdown({ night, label }: { night: Ready; label: string }) {
  const paused = night.reply.status === "paused";
  // The last tick may predate this answer: never read the clock as earlier than its arrival.
  const now = Math.max(useNow(!paused && night.reply.phaseEndsAt !== null), night.receivedAt);
  const left = remainingMs({ ...night.reply, receivedAt: night.receivedAt, paused }, now);
  if (left === null) return null;
  return (
    <div className="night-clock">
      <p className="night-clock-label" id="night-clock-label">
        {paused ? `${label} (paused)` : label}
      </p>
      <p className="night-time" role="timer" aria-labelledby="night-clock-label">
        {formatClock(left)}
      </p>
      <p className="sr-only" aria-live="polite">
        {paused ? "The host paused the clock" : spokenTimeLeft(left)}
      </p>
    </div>
  );
}

function Partner({ partner, before }: { partner: MyRoundsPartner; before: string }) {
  return (
    <div className="night-partner">
      <img src={imageUrl(partner.image_name)} alt="" width={72} height={72} decoding="async" />
      <p>
        {before} <strong>{partner.username}</strong>
      </p>
    </div>
  );
}

/** Where to sit (or `Break this round`) and with whom. */
function Seat({ moment, next }: { moment: NightMoment; next?: boolean }) {
  if (!moment.partner) {
    return (
      <>
        {next ? <p className="night-kicker">Next round</p> : null}
        <p className="night-table sit-out">Break this round</p>
        <p className="night-note">No date this round: time for a drink.</p>
      </>
    );
  }
  return (
    <>
      <p className="night-table">{next ? `Next: Table ${moment.table}` : `Table ${moment.table}`}</p>
      <Partner partner={moment.partner} before={next ? "Next you meet" : "With"} />
    </>
  );
}

function Schedule({ reply }: { reply: MyRounds }) {
  if (reply.schedule.length === 0) return null;
  return (
    <details className="night-schedule">
      <summary>All your rounds</summary>
      <ol>
        {reply.schedule.map((e) => (
          <li key={e.round}>
            Round {e.round}: {e.partner ? `Table ${e.table}, ${e.partner.username}` : "Break this round"}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** The night on top of /ParticipantFeedback: this guest's table, partner and the host's clock. */
export function YourNight({ night, ratingsClosed = false }: { night: NightState; ratingsClosed?: boolean }) {
  if (night.status === "loading") {
    return (
      <section className="night" aria-busy="true" aria-label="Your rounds">
        <p className="night-loading" role="status">
          Loading your rounds…
        </p>
      </section>
    );
  }
  if (night.status === "unavailable") {
    // A refused link is explained once, by the partners below; a server error leaves just the grid.
    if (night.reason !== "offline") return null;
    return (
      <p className="notice night-offline">
        You're offline, and your rounds aren't saved on this phone yet. They show once you're connected.
      </p>
    );
  }
  const view = nightView(night.reply);
  const kept = night.kept ? (
    <p className="night-kept" role="status">
      Offline: showing the last update this phone received.
    </p>
  ) : null;
  let title: string;
  let body: ReactNode;
  switch (view.kind) {
    case "none":
      if (ratingsClosed) return null;
      return <p className="empty night-none">Your table shows here when the host plans the rounds.</p>;
    case "finished":
      // After the release nothing asks for a rating: the grid below says when they closed (issue 46).
      if (ratingsClosed) {
        title = "Ratings are closed";
        body = <p className="night-note">The rounds are over and your results are out.</p>;
        break;
      }
      title = "The rounds are over";
      // A guest who sat in no round (a no-show) met nobody: there is nobody below to rate.
      body = (
        <p className="night-note">
          {night.reply.schedule.some((e) => e.partner)
            ? "Rate everyone you met below."
            : "You didn't meet anyone in the rounds, so there's nobody to rate."}
        </p>
      );
      break;
    case "not-seated":
      title = "You're checked in";
      body = <p className="night-note">The host adds you to the next rounds. Your table shows here.</p>;
      break;
    case "before":
      title = "The rounds start soon";
      body = (
        <>
          <p className="night-kicker">{roundOf(view.first.round, view.total)}</p>
          <Seat moment={view.first} />
          {view.firstTable ? (
            <p className="night-note">
              Your first table: Table {view.firstTable.table} in round {view.firstTable.round}.
            </p>
          ) : null}
        </>
      );
      break;
    case "round":
      title = roundOf(view.now.round, view.total);
      body = (
        <>
          <Seat moment={view.now} />
          <Countdown night={night} label="Time left" />
        </>
      );
      break;
    case "break":
      title = "Change tables";
      body = (
        <>
          <p className="night-kicker">{roundOf(view.round, view.total)} is over</p>
          {view.next ? <Seat moment={view.next} next /> : <p className="night-note">That was the last round.</p>}
          <Countdown night={night} label={view.next ? "Next round in" : "Rounds end in"} />
        </>
      );
      break;
  }
  // The host's Announce (issue 37), for as long as the round it was made in lasts.
  const announcement =
    (view.kind === "round" || view.kind === "break") && night.reply.announcement ? (
      <p className="night-announcement" role="status">
        <span className="night-announcement-label">From the host: </span>
        {night.reply.announcement}
      </p>
    ) : null;
  return (
    <section className="night" aria-labelledby="night-title" data-moment={view.kind}>
      <h2 id="night-title">{title}</h2>
      {announcement}
      {body}
      {kept}
      <Schedule reply={night.reply} />
    </section>
  );
}
