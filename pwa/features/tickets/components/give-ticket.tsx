import { type FormEvent, useId, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { type GiveOutcome, giveTicket } from "../give-ticket.ts";
import "../tickets.css";

/**
 * **Give my ticket to a friend** under a valid ticket, until the doors open (the server says so when
 * they have): a small form for the friend's mobile, then a clear status. The friend is texted a link
 * and takes the ticket there; this one then shows NOT VALID. A second send replaces the first link.
 */
export function GiveTicket({ eventID, userID }: { eventID: number; userID: number }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<GiveOutcome | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setOutcome(await giveTicket({ eventID, userID }, typed));
    setBusy(false);
  };

  if (!open)
    return (
      <p className="give-ticket">
        <button
          type="button"
          className="button"
          onClick={() => {
            setOpen(true);
            setTimeout(() => inputRef.current?.focus());
          }}
        >
          Give my ticket to a friend
        </button>
      </p>
    );
  return (
    <form className="form give-ticket" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Give my ticket to a friend</h3>
      <p>
        Your friend gets a text with a link. Once they verify their number and add their details, the ticket is theirs
        and this one is no longer valid. A ticket can be given once.
      </p>
      <label htmlFor={`${id}-phone`}>Your friend's mobile</label>
      <input
        ref={inputRef}
        id={`${id}-phone`}
        type="tel"
        inputMode="tel"
        autoComplete="off"
        placeholder="412 345 678"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
      <button type="submit" className="button primary" disabled={busy || typed.trim() === ""}>
        {busy ? "Sending…" : "Send the link"}
      </button>
      <div role="status" aria-live="polite">
        {outcome?.kind === "offered" ? (
          <p className="notice ok">
            Sent. Your friend has a text with the link; your ticket stays valid until they take it before the doors
            open. Send again to change the number.
          </p>
        ) : outcome?.kind === "refused" ? (
          <p className="notice error">{outcome.message}</p>
        ) : outcome?.kind === "signed-out" ? (
          <p className="notice error">
            To give your ticket, <Link to="/me">sign in on My nights</Link> with the mobile it was booked with.
          </p>
        ) : outcome?.kind === "offline" ? (
          <p className="notice error">You're offline. Send again when you have a connection.</p>
        ) : null}
      </div>
    </form>
  );
}
