import { type FormEvent, useCallback, useEffect, useState } from "react";
import type { ApiReply } from "../../../lib/api.ts";
import { ErrorNotice } from "../../../lib/error-notice.tsx";
import {
  ACTIVITY_PAGE_SIZE,
  type ActivityEntry,
  createHostLink,
  getActivity,
  type HostLink,
  listHostLinks,
  type NewHostLink,
  revokeHostLink,
} from "../admin-api.ts";
import { formatAtVenue } from "../format.ts";
import type { useAdminEvents } from "../use-admin-events.ts";
import { useConfirm } from "./confirm-dialog.tsx";
import { EventPicker } from "./event-picker.tsx";
import { FormMessage, type Message } from "./form-message.tsx";

type Loaded<T> = { status: "idle" | "loading" | "error" } | { status: "ready"; rows: T[] };

/** What an erased attendee's row says (api/ops/retention.ts), shown for a person with no name. */
const ERASED_NAME = "Erased attendee";
const personName = (person: ActivityEntry["person"]) => person?.name ?? ERASED_NAME;

/** Who made a change: the organiser, a host by the link's label, the server (failed logins) or a guest (their own cancel). */
function actorLine(entry: ActivityEntry) {
  if (entry.actorKind === "organiser") return "Organiser";
  if (entry.actorKind === "system") return "System";
  if (entry.actorKind === "guest") return "Guest";
  return `${entry.actor} (host)`;
}

/** `paper card entered · Imran Ali · like for Kavya Rao`: names are read now, never stored. */
function whatLine(entry: ActivityEntry) {
  const parts: string[] = [entry.action];
  if (entry.person) parts.push(personName(entry.person));
  const detail = entry.otherPerson ? `${entry.detail ?? ""} for ${personName(entry.otherPerson)}`.trim() : entry.detail;
  if (detail) parts.push(detail);
  if (entry.count > 1) parts.push(`${entry.count} times`);
  return parts.join(" · ");
}

type Props = {
  events: ReturnType<typeof useAdminEvents>;
  eventId: number | null;
  onPick(id: number | null): void;
};

/**
 * The **Host access** tab (docs/decisions/022-host-access.md): per event, the host links (make one
 * with a label, show its link and QR code, revoke it) and the event's **Activity**, newest first.
 */
export function HostAccess({ events, eventId, onPick }: Props) {
  const picked = events.state.status === "ready" ? events.state.events.find((e) => e.id === eventId) : undefined;
  const zone = picked?.time_zone ?? "UTC";
  const [links, setLinks] = useState<Loaded<HostLink>>({ status: "idle" });
  const [activity, setActivity] = useState<Loaded<ActivityEntry>>({ status: "idle" });
  // Whether a full page came back last, so older entries may be there; and an older page being read.
  const [older, setOlder] = useState<"none" | "more" | "loading" | "error">("none");
  const [label, setLabel] = useState("");
  const [made, setMade] = useState<NewHostLink | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const { confirm, dialog } = useConfirm();

  const load = useCallback(async (id: number) => {
    const read = async <T,>(call: Promise<ApiReply<T[], unknown>>, set: (v: Loaded<T>) => void) => {
      try {
        const reply = await call;
        set(reply.ok ? { status: "ready", rows: reply.data } : { status: "error" });
      } catch (error) {
        console.warn(error);
        set({ status: "error" });
      }
    };
    const setFirstPage = (page: Loaded<ActivityEntry>) => {
      setActivity(page);
      setOlder(page.status === "ready" && page.rows.length >= ACTIVITY_PAGE_SIZE ? "more" : "none");
    };
    await Promise.all([read(listHostLinks(id), setLinks), read(getActivity(id), setFirstPage)]);
  }, []);

  const loadOlder = async () => {
    if (eventId === null || activity.status !== "ready" || older === "loading") return;
    const last = activity.rows.at(-1);
    setOlder("loading");
    try {
      const reply = await getActivity(eventId, last?.id);
      if (!reply.ok) {
        setOlder("error");
        return;
      }
      const page = reply.data;
      const shown = new Set(activity.rows.map((r) => r.id));
      setActivity({ status: "ready", rows: [...activity.rows, ...page.filter((r) => !shown.has(r.id))] });
      setOlder(page.length >= ACTIVITY_PAGE_SIZE ? "more" : "none");
    } catch (error) {
      console.warn(error);
      setOlder("error");
    }
  };

  useEffect(() => {
    setMade(null);
    setMessage(null);
    setLinks({ status: eventId === null ? "idle" : "loading" });
    setActivity({ status: eventId === null ? "idle" : "loading" });
    if (eventId !== null) void load(eventId);
  }, [eventId, load]);

  const onCreate = async (e: FormEvent) => {
    e.preventDefault();
    if (eventId === null || busy) return;
    setBusy(true);
    setMessage(null);
    try {
      const reply = await createHostLink(eventId, label.trim());
      if (reply.ok) {
        setMade(reply.data);
        setLabel("");
        await load(eventId);
      } else {
        setMessage({ kind: "error", text: reply.data.error ?? "Couldn't make the link." });
      }
    } catch {
      setMessage({ kind: "error", text: "Couldn't reach the server. Try again." });
    } finally {
      setBusy(false);
    }
  };

  const onRevoke = async (link: HostLink) => {
    if (eventId === null) return;
    const go = await confirm({
      title: `Revoke ${link.label}?`,
      lines: ["Every phone signed in with this link loses the door and the rounds at once."],
      confirmLabel: "Revoke",
    });
    if (!go) return;
    try {
      const reply = await revokeHostLink(link.id);
      if (!reply.ok) setMessage({ kind: "error", text: reply.data.error ?? "Couldn't revoke the link." });
      else if (made?.id === link.id) setMade(null);
    } catch {
      setMessage({ kind: "error", text: "Couldn't reach the server. Try again." });
    }
    await load(eventId);
  };

  return (
    <div className="host-access">
      <EventPicker id="host-access-event" events={events} value={eventId} onChange={onPick} />
      {eventId === null ? <p className="empty">Choose an event to give hosts the door and the rounds.</p> : null}
      {eventId !== null ? (
        <>
          <section className="host-access-section" aria-labelledby="host-access-title">
            <h2 id="host-access-title">Host access</h2>
            <p className="admin-hint">
              A host link opens only this event's Door and Rounds, on any phone, until 6 hours after the event's planned
              end or until you revoke it. Hosts never see emails, full phone numbers, refunds or other events.
            </p>
            <form className="host-access-new" onSubmit={(e) => void onCreate(e)}>
              <div className="field">
                <label htmlFor="host-link-label">Label</label>
                <input
                  id="host-link-label"
                  value={label}
                  maxLength={60}
                  required
                  autoComplete="off"
                  placeholder="Door 1, Priya (host)"
                  onChange={(e) => setLabel(e.target.value)}
                />
              </div>
              <button type="submit" className="button primary" disabled={busy || label.trim() === ""}>
                New host link
              </button>
            </form>
            <FormMessage message={message} />
            {made ? (
              <div className="host-access-made" role="status">
                <p>
                  Link for <strong>{made.label}</strong>: scan the code with the host's phone, or send them the link.
                </p>
                <img
                  className="host-access-qr"
                  src={made.qrCodeImage}
                  alt={`QR code of the host link for ${made.label}`}
                />
                <label className="host-access-url">
                  <span>Host link</span>
                  <input readOnly value={made.url} onFocus={(e) => e.currentTarget.select()} />
                </label>
              </div>
            ) : null}
            {links.status === "loading" ? (
              <p role="status" className="admin-loading">
                Loading the host links...
              </p>
            ) : null}
            {links.status === "error" ? (
              <ErrorNotice message="Couldn't load the host links." onRetry={() => load(eventId)} />
            ) : null}
            {links.status === "ready" && links.rows.length === 0 ? (
              <p className="empty">No host links for this event yet.</p>
            ) : null}
            {links.status === "ready" && links.rows.length > 0 ? (
              <ul className="host-access-links" aria-label="Host links">
                {links.rows.map((link) => {
                  const ended = link.revokedAt !== null || Date.parse(link.expiresAt) <= Date.now();
                  return (
                    <li key={link.id} className={ended ? "host-access-link ended" : "host-access-link"}>
                      <div>
                        <strong>{link.label}</strong>
                        <span className="host-access-when">
                          {link.revokedAt !== null
                            ? `Revoked ${formatAtVenue(link.revokedAt, zone)}`
                            : ended
                              ? `Expired ${formatAtVenue(link.expiresAt, zone)}`
                              : `Until ${formatAtVenue(link.expiresAt, zone)}`}
                        </span>
                      </div>
                      {ended ? null : (
                        <button
                          type="button"
                          className="button"
                          aria-label={`Revoke ${link.label}`}
                          onClick={() => void onRevoke(link)}
                        >
                          Revoke
                        </button>
                      )}
                    </li>
                  );
                })}
              </ul>
            ) : null}
          </section>

          <section className="host-access-section" aria-labelledby="activity-title">
            <div className="host-access-head">
              <h2 id="activity-title">Activity</h2>
              <button type="button" className="button" onClick={() => void load(eventId)}>
                Refresh
              </button>
            </div>
            {activity.status === "loading" ? (
              <p role="status" className="admin-loading">
                Loading the activity...
              </p>
            ) : null}
            {activity.status === "error" ? (
              <ErrorNotice message="Couldn't load the activity." onRetry={() => load(eventId)} />
            ) : null}
            {activity.status === "ready" && activity.rows.length === 0 ? (
              <p className="empty">Nothing recorded for this event yet.</p>
            ) : null}
            {activity.status === "ready" && activity.rows.length > 0 ? (
              <ol className="activity-list" aria-label="Activity, newest first">
                {activity.rows.map((entry) => (
                  <li key={entry.id} className="activity-entry">
                    <span className="activity-when">{formatAtVenue(entry.at, zone)}</span>
                    <span className="activity-what">
                      <strong className={`activity-actor activity-actor-${entry.actorKind}`}>{actorLine(entry)}</strong>
                      {" · "}
                      <span>{whatLine(entry)}</span>
                    </span>
                  </li>
                ))}
              </ol>
            ) : null}
            {activity.status === "ready" && older !== "none" ? (
              <div className="activity-older">
                {older === "error" ? <p role="alert">Couldn't load older entries.</p> : null}
                <button
                  type="button"
                  className="button"
                  disabled={older === "loading"}
                  onClick={() => void loadOlder()}
                >
                  {older === "loading" ? "Loading older entries..." : "Older entries"}
                </button>
              </div>
            ) : null}
          </section>
        </>
      ) : null}
      {dialog}
    </div>
  );
}
