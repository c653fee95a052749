import { useEffect, useId, useRef, useState } from "react";
import { ANNOUNCEMENT_SMS_MAX, smsLength } from "../../../../common/announcement.ts";
import type { ConfirmRequest } from "../../../components/ui/confirm-dialog.tsx";
import { FormMessage, type Message } from "../../../components/ui/form-message.tsx";
import { useReply } from "../../../lib/use-reply.ts";
import type { AdminEventSummary } from "../admin-api.ts";
import {
  type AnnouncementDraft,
  type AnnouncementPreview,
  previewAnnouncement,
  recipientsLabel,
  sendAnnouncement,
  suggestedText,
} from "../announcements.ts";

// The Invite tab's draft (invite.tsx): the audience, the channels, the text, the counts and the
// messages as they will arrive, and Send.

type Channel = "sms" | "email";
type Gender = "" | "female" | "male";
type Preview =
  | { status: "error"; message: string }
  /** `key`: the draft it answers; a preview of an older draft is not shown as this one's. */
  | { status: "ready"; data: AnnouncementPreview; key: string };

/** How long typing pauses before the counts and the preview are asked for again. */
const PREVIEW_DELAY_MS = 300;

const AUDIENCE_LABELS = {
  pastGuests: "Only guests of past nights",
  ageFit: "Only ages that fit this event",
  waitlisted: "Only people who waited on a waitlist",
} as const;

type Filters = { pastGuests: boolean; ageFit: boolean; waitlisted: boolean };

/** Waits `ms`, or throws once `signal` aborts. */
function pause(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/**
 * The counts and the messages as they will arrive, from the server, once typing pauses: read through
 * useReply (docs/decisions/049-one-hook-for-a-reply.md), keyed by the draft. A new draft aborts the
 * count on its way (or the pause before it), and the last counts stay shown until the new ones come.
 */
function usePreview(draftKey: string | null) {
  const pending = useRef<AbortController | null>(null);
  // A new draft (or none, or the tab closed): the count on its way is for one no longer shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new draftKey is what aborts it
  useEffect(() => () => pending.current?.abort(), [draftKey]);
  const { state } = useReply(draftKey, {
    async load(key: string): Promise<Preview> {
      const body = JSON.parse(key) as AnnouncementDraft;
      if (body.channels.length === 0)
        return { status: "error", message: "Choose at least one way to send it: text message, email or both." };
      const controller = new AbortController();
      pending.current = controller;
      try {
        await pause(PREVIEW_DELAY_MS, controller.signal);
        const reply = await previewAnnouncement(body, controller.signal);
        return reply.ok
          ? { status: "ready", data: reply.data, key }
          : { status: "error", message: reply.data.error ?? "Couldn't count the audience." };
      } catch (error) {
        // Aborted for a newer draft, whose own read is what shows: this answer is dropped.
        if (controller.signal.aborted) return { status: "error", message: "" };
        throw error;
      }
    },
    failed(error): Preview {
      console.warn(error);
      return { status: "error", message: "Couldn't reach the server to count the audience." };
    },
  });
  // While the next draft is counted, the last counts stay (they do not go back to "Counting…").
  const shown = useRef(state);
  if (state.status !== "loading" || shown.current.status !== "ready") shown.current = state;
  return shown.current;
}

function AudienceFields(props: {
  ids: string;
  filters: Filters;
  setFilters(filters: Filters): void;
  gender: Gender;
  setGender(gender: Gender): void;
}) {
  const { ids, filters, setFilters, gender, setGender } = props;
  return (
    <fieldset className="invite-audience">
      <legend>Who</legend>
      {(Object.keys(AUDIENCE_LABELS) as (keyof typeof AUDIENCE_LABELS)[]).map((key) => (
        <label key={key} className="check">
          <input
            type="checkbox"
            checked={filters[key]}
            onChange={(e) => setFilters({ ...filters, [key]: e.target.checked })}
          />
          {AUDIENCE_LABELS[key]}
        </label>
      ))}
      <div className="field">
        <label htmlFor={`${ids}-gender`}>Women or men</label>
        <select id={`${ids}-gender`} value={gender} onChange={(e) => setGender(e.target.value as Gender)}>
          <option value="">Everyone</option>
          <option value="female">Women</option>
          <option value="male">Men</option>
        </select>
      </div>
      <p className="admin-hint">With nothing ticked, everyone who opted in.</p>
    </fieldset>
  );
}

function ChannelFields({
  channels,
  setChannels,
}: {
  channels: Record<Channel, boolean>;
  setChannels(channels: Record<Channel, boolean>): void;
}) {
  return (
    <fieldset className="invite-channels">
      <legend>How</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={channels.sms}
          onChange={(e) => setChannels({ ...channels, sms: e.target.checked })}
        />
        Text message
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={channels.email}
          onChange={(e) => setChannels({ ...channels, email: e.target.checked })}
        />
        Email
      </label>
    </fieldset>
  );
}

function MessageField(props: {
  ids: string;
  text: string;
  setText(text: string): void;
  sms: boolean;
  smsChars: number | null;
  tooLong: boolean;
}) {
  const { ids, text, setText, smsChars, tooLong } = props;
  return (
    <div className="field">
      <label htmlFor={`${ids}-text`}>Message</label>
      <textarea
        id={`${ids}-text`}
        rows={4}
        value={text}
        maxLength={2000}
        aria-describedby={`${ids}-text-hint ${ids}-count`}
        onChange={(e) => setText(e.target.value)}
      />
      <p id={`${ids}-text-hint`} className="admin-hint">
        {"{link}"} becomes the event's link. The text message adds who it is from and Reply STOP to opt out.
      </p>
      {props.sms ? (
        <p id={`${ids}-count`} className={tooLong ? "invite-count over" : "invite-count"} aria-live="polite">
          {smsChars === null ? "Counting…" : `${smsChars} of ${ANNOUNCEMENT_SMS_MAX} characters in the text message`}
          {tooLong && smsChars !== null ? `: ${smsChars - ANNOUNCEMENT_SMS_MAX} too many.` : ""}
        </p>
      ) : (
        <span id={`${ids}-count`} hidden />
      )}
    </div>
  );
}

/** The messages exactly as they arrive, shown under Preview. */
function InvitePreview(props: { ids: string; showPreview: boolean; ready: AnnouncementPreview | null }) {
  const { ids, showPreview, ready } = props;
  return (
    <div id={`${ids}-preview`} hidden={!showPreview || ready === null} className="invite-preview">
      {showPreview && ready?.sms ? (
        <section aria-labelledby={`${ids}-sms-title`}>
          <h3 id={`${ids}-sms-title`}>Text message</h3>
          <pre className="invite-sms">{ready.sms}</pre>
        </section>
      ) : null}
      {showPreview && ready?.email ? (
        <section aria-labelledby={`${ids}-email-title`}>
          <h3 id={`${ids}-email-title`}>Email</h3>
          <p>
            <strong>Subject:</strong> {ready.email.subject}
          </p>
          {/* No scripts, no same origin: the email's own HTML, shown as a mail client would. */}
          <iframe className="invite-email" title="The email as it arrives" sandbox="" srcDoc={ready.email.html} />
          <p className="admin-hint">The Unsubscribe link here is a sample; each person's email has their own.</p>
        </section>
      ) : null}
    </div>
  );
}

type ComposeProps = {
  /** The upcoming event chosen, if any: the draft is kept while none is (nothing is shown then). */
  event: AdminEventSummary | undefined;
  eventId: number | null;
  confirm(request: ConfirmRequest): Promise<boolean>;
  /** Reads the list again after a send. */
  onSent(eventId: number): Promise<void>;
};

/**
 * The draft of an invitation to `event`: pick an audience, write the text (the event's link where
 * `{link}` is), see the counts per channel and the messages exactly as they arrive, and **Send**
 * behind a confirmation.
 */
export function InviteCompose({ event, eventId, confirm, onSent }: ComposeProps) {
  const ids = useId();
  const [filters, setFilters] = useState<Filters>({ pastGuests: false, ageFit: false, waitlisted: false });
  const [gender, setGender] = useState<Gender>("");
  const [channels, setChannels] = useState<Record<Channel, boolean>>({ sms: true, email: true });
  const [text, setText] = useState("");
  const [showPreview, setShowPreview] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);

  // A new event starts a new draft, named for it.
  const drafted = useRef<number | null>(null);
  useEffect(() => {
    if (!event || drafted.current === event.id) return;
    drafted.current = event.id;
    setMessage(null);
    setShowPreview(false);
    setText(suggestedText(event));
  }, [event]);

  const chosen = (["sms", "email"] as const).filter((c) => channels[c]);
  const draft: AnnouncementDraft | null =
    eventId === null || !event
      ? null
      : {
          eventID: eventId,
          audience: {
            ...(filters.pastGuests ? { pastGuests: true } : {}),
            ...(filters.ageFit ? { ageFit: true } : {}),
            ...(gender ? { gender } : {}),
            ...(filters.waitlisted ? { waitlisted: true } : {}),
          },
          channels: chosen,
          text,
        };
  const draftKey = draft ? JSON.stringify(draft) : null;
  const preview = usePreview(draftKey);

  // Only a preview of the draft as it stands now is shown as "as it will arrive", or lets it be sent.
  const ready = preview.status === "ready" && preview.key === draftKey ? preview.data : null;
  const counted = preview.status === "ready" ? preview.data.recipients : null;
  const smsChars = ready?.sms ? smsLength(ready.sms) : null;
  const tooLong = smsChars !== null && smsChars > ANNOUNCEMENT_SMS_MAX;
  const total = ready ? (channels.sms ? ready.recipients.sms : 0) + (channels.email ? ready.recipients.email : 0) : 0;
  const canSend = draft !== null && !busy && ready !== null && !tooLong && text.trim() !== "" && total > 0;

  const onSend = async () => {
    if (!draft || !ready || !event) return;
    const go = await confirm({
      title: `Send this invitation to ${event.name}?`,
      lines: [
        `${recipientsLabel(ready.recipients, draft.channels)}.`,
        "Only people who said yes to hearing about future events get it, and each person gets it once.",
      ],
      confirmLabel: "Send",
    });
    if (!go) return;
    setBusy(true);
    setMessage(null);
    try {
      const reply = await sendAnnouncement(draft);
      if (reply.ok) {
        setMessage({ kind: "ok", text: `Sending: ${recipientsLabel(reply.data.recipients, draft.channels)}.` });
        setShowPreview(false);
        await onSent(event.id);
      } else {
        setMessage({ kind: "error", text: reply.data.error ?? "Couldn't send the invitation." });
      }
    } catch {
      setMessage({ kind: "error", text: "Couldn't reach the server. Try again." });
    } finally {
      setBusy(false);
    }
  };

  if (!event) return null;
  return (
    <section className="invite-section" aria-labelledby={`${ids}-compose`}>
      <h2 id={`${ids}-compose`}>Invite people to {event.name}</h2>
      <p className="admin-hint">
        Only people who ticked Text me about future events or Email me about future events are sent anything, and nobody
        already booked for this night. Each text ends with Reply STOP to opt out; each email has an Unsubscribe link.
      </p>
      <AudienceFields ids={ids} filters={filters} setFilters={setFilters} gender={gender} setGender={setGender} />
      <ChannelFields channels={channels} setChannels={setChannels} />
      <MessageField ids={ids} text={text} setText={setText} sms={channels.sms} smsChars={smsChars} tooLong={tooLong} />
      <p className="invite-recipients" role="status">
        {counted && chosen.length > 0
          ? recipientsLabel(counted, chosen)
          : preview.status === "loading"
            ? "Counting…"
            : ""}
      </p>
      {preview.status === "error" ? <p role="alert">{preview.message}</p> : null}
      <div className="invite-actions">
        <button
          type="button"
          className="button"
          aria-expanded={showPreview}
          aria-controls={`${ids}-preview`}
          disabled={ready === null}
          onClick={() => setShowPreview(!showPreview)}
        >
          Preview
        </button>
        <button type="button" className="button primary" disabled={!canSend} onClick={() => void onSend()}>
          Send
        </button>
      </div>
      <FormMessage message={message} />
      {/* Rendered only while shown: a hidden iframe would still be a frame for tools to wait on. */}
      <InvitePreview ids={ids} showPreview={showPreview} ready={ready} />
    </section>
  );
}
