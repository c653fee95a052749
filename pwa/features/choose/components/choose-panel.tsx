import { useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { audFromCents, REFUND_ARRIVES } from "../../../../common/money.ts";
import { formatVenueTime, venueDayMonth, venueWeekday } from "../../../../common/time-zone.ts";
import { paths } from "../../../app/paths.ts";
import { type Choice, type GuestChoice, type Loaded, loadChoice, makeChoice } from "../choose-api.ts";
import "../choose.css";

/** `Tuesday 15 December` on the venue's clock. */
const dayOf = (iso: string, zone: string) =>
  `${venueWeekday(Date.parse(iso), zone, "long")} ${venueDayMonth(Date.parse(iso), zone, "long")}`;

/** What was done, in the guest's words. */
function doneSentence(data: GuestChoice, choice: Choice): string {
  if (choice === "refund")
    return `You chose the refund: ${audFromCents(data.refundCents)} is on its way back to your card; ${REFUND_ARRIVES}.`;
  if (choice === "credit")
    return `You chose credit: ${audFromCents(data.creditCents)} is now credit on your number, shown on My nights. It does not expire.`;
  const to = data.toEvent;
  return to
    ? `You kept your seat: your new ticket for ${to.name} on ${dayOf(to.startsAt, to.timeZone)} has been texted to you.`
    : "You kept your seat on the new night.";
}

/**
 * `/choose?t=`: the page a guest's text opens when the organiser cancelled or moved their night
 * (docs/decisions/059-short-of-numbers.md). The night, what happened, and one button per choice;
 * after choosing, what was done. Opening the page changes nothing; only a button does.
 */
export function ChoosePanel(props: { token: string }) {
  const { token } = props;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ kind: "error" | "info"; text: string } | null>(null);
  const result = useRef<HTMLHeadingElement & HTMLParagraphElement>(null);

  useEffect(() => {
    let live = true;
    if (!token)
      setLoaded({ kind: "invalid", message: "This link is not complete: open it again from the text you were sent." });
    else void loadChoice(token).then((l) => live && setLoaded(l));
    return () => {
      live = false;
    };
  }, [token]);

  async function choose(choice: Choice) {
    setBusy(true);
    setNote(null);
    const outcome = await makeChoice(token, choice);
    setBusy(false);
    if (outcome.kind === "failed") {
      setNote({ kind: "error", text: "That didn't go through. Check your connection and try again." });
    } else if (outcome.kind === "invalid") {
      setLoaded({ kind: "invalid", message: outcome.message });
    } else if (loaded?.kind === "ok") {
      if (outcome.kind === "already") setNote({ kind: "info", text: outcome.message });
      setLoaded({ kind: "ok", data: { ...loaded.data, choice: outcome.choice } });
    }
    requestAnimationFrame(() => result.current?.focus());
  }

  if (loaded === null)
    return (
      <p className="empty" role="status" aria-busy="true">
        Loading your booking…
      </p>
    );
  if (loaded.kind === "invalid")
    return (
      <div className="choose">
        <h1>This link is not valid</h1>
        <p role="alert">{loaded.message}</p>
      </div>
    );
  if (loaded.kind === "failed")
    return (
      <div className="choose">
        <h1>Your night</h1>
        <p className="message error" role="alert">
          We couldn't load your booking. Check your connection and reload the page.
        </p>
      </div>
    );

  const { data } = loaded;
  const when = formatVenueTime(Date.parse(data.startsAt), data.timeZone);
  const to = data.toEvent;
  return (
    <div className="choose">
      <h1>{data.kind === "move" ? "Your night has moved" : "Your night was cancelled"}</h1>
      <p>
        <strong>{data.eventName}</strong> on {when}{" "}
        {data.kind === "move" && to
          ? `has moved to ${formatVenueTime(Date.parse(to.startsAt), to.timeZone)} at ${to.address}.`
          : "has been cancelled by the organiser. We're sorry."}
      </p>
      {data.choice ? (
        <div className="notice ok" role="status">
          {note ? <p>{note.text}</p> : null}
          <p tabIndex={-1} ref={result}>
            {doneSentence(data, data.choice)}
          </p>
          {data.choice === "credit" ? (
            <p>
              <Link to={paths.me}>See it on My nights</Link>
            </p>
          ) : null}
        </div>
      ) : (
        <>
          <p>
            Choose by {formatVenueTime(Date.parse(data.deadline), data.timeZone)}. If you don't choose, you get the
            refund.
          </p>
          {note ? (
            <p className="message error" role="alert" tabIndex={-1} ref={result}>
              {note.text}
            </p>
          ) : null}
          <div className="choose-buttons">
            {data.kind === "move" && to ? (
              <button type="button" className="button primary" disabled={busy} onClick={() => void choose("move")}>
                Keep my seat on {dayOf(to.startsAt, to.timeZone)}
              </button>
            ) : null}
            <button type="button" className="button" disabled={busy} onClick={() => void choose("refund")}>
              Refund {audFromCents(data.refundCents)}
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => void choose("credit")}>
              Credit {audFromCents(data.creditCents)}
            </button>
          </div>
          <p className="choose-hint">
            Credit is the full price, on your number for any night, and does not expire. A refund goes back to your
            card.
          </p>
        </>
      )}
    </div>
  );
}
