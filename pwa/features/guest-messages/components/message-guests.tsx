import { useId, useState } from "react";
import { GUEST_MESSAGE, guestMessageBody } from "../../../../common/guest-message.ts";
import { Dialog } from "../../../components/ui/dialog.tsx";
import { CallFailed } from "../../../lib/api.ts";
import { useReply } from "../../../lib/use-reply.ts";
import "../../../components/ui/ui.css";
import "../guest-messages.css";
import {
  type GuestAudience,
  type GuestMessagePreview,
  messageGuests,
  previewGuestMessage,
} from "../guest-messages-api.ts";

/**
 * **Message guests** (docs/decisions/019-running-the-night.md): a button that opens a dialog to text
 * the night's guests, all of them or by whether they came. The counts come from the server, and the
 * dialog shows the exact text each guest gets before anything is sent.
 */
export function MessageGuests({ eventID, disabled = false }: { eventID: number; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button message-guests-open" disabled={disabled} onClick={() => setOpen(true)}>
        Message guests
      </button>
      {open ? <MessageGuestsDialog eventID={eventID} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

const AUDIENCES: { value: GuestAudience; label: string }[] = [
  { value: "all", label: "Everyone with a paid ticket" },
  { value: "arrived", label: "Only those who came" },
  { value: "not_arrived", label: "Only those not yet arrived" },
];

const guests = (n: number) => `${n} guest${n === 1 ? "" : "s"}`;

/** A fresh id per dialog: a send retried after a lost reply is then the same message, never a second. */
function newMessageID() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `msg-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

type Loaded = { status: "error"; message: string } | { status: "ready"; preview: GuestMessagePreview };
type Outcome = { kind: "ok" | "error"; text: string } | null;

function MessageGuestsDialog({ eventID, onClose }: { eventID: number; onClose(): void }) {
  const id = useId();
  const [to, setTo] = useState<GuestAudience>("all");
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [sent, setSent] = useState(false);
  const [messageID] = useState(newMessageID);

  const loaded = useAudiencePreview(eventID);

  const preview = loaded.status === "ready" ? loaded.preview : null;
  const count = preview ? preview.counts[to] : 0;
  const trimmed = text.trim();
  const canSend = preview?.open === true && trimmed.length > 0 && count > 0 && !sending && !sent;

  const onSend = async () => {
    if (!canSend) return;
    setSending(true);
    setOutcome(null);
    try {
      const reply = await messageGuests({ eventID, to, text: trimmed, messageID });
      if (reply.ok) setSent(true);
      setOutcome(outcomeOf(reply));
    } catch (error) {
      if (!(error instanceof CallFailed)) throw error;
      setOutcome({ kind: "error", text: "Couldn't reach the server. Send again when online: nobody gets it twice." });
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog className="admin-dialog message-guests" aria-labelledby={`${id}-title`} onClose={onClose}>
      <h2 id={`${id}-title`}>Message guests</h2>
      {loaded.status === "loading" ? (
        <p role="status" className="admin-loading">
          Counting the guests...
        </p>
      ) : null}
      {loaded.status === "error" ? (
        <p className="notice error" role="alert">
          {loaded.message}
        </p>
      ) : null}
      {preview && !preview.open ? (
        <p className="notice error" role="alert">
          This event has ended, so messages to its guests have closed.
        </p>
      ) : null}
      {preview?.open ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void onSend();
          }}
        >
          <AudienceFields id={id} disabled={sent} counts={preview.counts} to={to} onTo={setTo} />
          <div className="field">
            <label htmlFor={`${id}-text`}>Message</label>
            <textarea
              id={`${id}-text`}
              rows={3}
              maxLength={GUEST_MESSAGE.maxLength}
              value={text}
              disabled={sent}
              aria-describedby={`${id}-left`}
              onChange={(e) => setText(e.target.value)}
            />
            <p id={`${id}-left`} className="rounds-hint">
              {text.length} of {GUEST_MESSAGE.maxLength} characters
            </p>
          </div>
          {trimmed ? (
            <div className="message-guests-preview">
              <p>
                <strong>Texts {guests(count)}:</strong>
              </p>
              <p className="message-guests-text">{guestMessageBody(preview.eventName, trimmed)}</p>
            </div>
          ) : null}
          <p className="rounds-hint">
            {preview.sentLastHour} of {preview.perHour} messages an hour sent to this event's guests.
          </p>
          {outcome ? (
            <p className={`admin-message ${outcome.kind}`} role={outcome.kind === "ok" ? "status" : "alert"}>
              {outcome.text}
            </p>
          ) : null}
          <div className="admin-actions admin-dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              {sent ? "Close" : "Go back"}
            </button>
            {sent ? null : (
              <button type="submit" className="button primary" disabled={!canSend} aria-busy={sending || undefined}>
                {`Send to ${guests(count)}`}
              </button>
            )}
          </div>
        </form>
      ) : (
        <div className="admin-actions admin-dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      )}
    </Dialog>
  );
}

/** Who the message would go to: the counts of each audience, read from the server once. */
function useAudiencePreview(eventID: number) {
  return useReply(eventID, {
    async load(id: number): Promise<Loaded> {
      const reply = await previewGuestMessage(id);
      return reply.ok
        ? { status: "ready", preview: reply.data }
        : { status: "error", message: "Couldn't load who the message would go to. Close and try again." };
    },
    failed: (): Loaded => ({ status: "error", message: "You're offline: messages need the network." }),
  }).state;
}

/** What a send's answer says: how many it went to, or why it did not go. */
function outcomeOf(reply: Awaited<ReturnType<typeof messageGuests>>): Outcome {
  if (reply.ok) {
    const { sent: done, failed } = reply.data;
    return {
      kind: "ok",
      text: failed
        ? `Sent to ${guests(done)}; ${failed} could not be delivered yet and will be retried automatically.`
        : `Sent to ${guests(done)}.`,
    };
  }
  const code = reply.data.code;
  return {
    kind: "error",
    text:
      code === "rate_limited"
        ? `${GUEST_MESSAGE.perHour} messages have gone to this event's guests in the last hour. Try again later.`
        : code === "wrong_state"
          ? "This event has ended, so messages to its guests have closed."
          : reply.status === 403
            ? "This host link is for another event."
            : "Couldn't send the message. Try again: nobody gets it twice.",
  };
}

function AudienceFields(props: {
  id: string;
  disabled: boolean;
  counts: GuestMessagePreview["counts"];
  to: GuestAudience;
  onTo(to: GuestAudience): void;
}) {
  const { id, to } = props;
  return (
    <fieldset className="message-guests-audience" disabled={props.disabled}>
      <legend>Send to</legend>
      {AUDIENCES.map((a) => (
        <label key={a.value} className="admin-check">
          <input
            type="radio"
            name={`${id}-to`}
            value={a.value}
            checked={to === a.value}
            onChange={() => props.onTo(a.value)}
          />
          {a.label} ({props.counts[a.value]})
        </label>
      ))}
    </fieldset>
  );
}
