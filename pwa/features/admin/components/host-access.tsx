import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useConfirm } from "../../../components/ui/confirm-dialog.tsx";
import { EventPicker } from "../../../components/ui/event-picker.tsx";
import { FormMessage, type Message } from "../../../components/ui/form-message.tsx";
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
import { ActivitySection, type Older } from "./activity-log.tsx";

type Loaded<T> = { status: "idle" | "loading" | "error" } | { status: "ready"; rows: T[] };

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
  const zone = picked?.timeZone ?? "UTC";
  const { links, activity, older, load, loadOlder } = useHostAccess(eventId);
  const [label, setLabel] = useState("");
  const [made, setMade] = useState<NewHostLink | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const { confirm, dialog } = useConfirm();
  // Another event picked: the link just made and the last message belong to the one before.
  // biome-ignore lint/correctness/useExhaustiveDependencies: eventId is what resets them
  useEffect(() => {
    setMade(null);
    setMessage(null);
  }, [eventId]);

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
            {made ? <MadeLink made={made} /> : null}
            <HostLinks
              links={links}
              zone={zone}
              onRetry={() => load(eventId)}
              onRevoke={(link) => void onRevoke(link)}
            />
          </section>

          <ActivitySection
            activity={activity}
            older={older}
            zone={zone}
            onReload={() => void load(eventId)}
            onOlder={() => void loadOlder()}
          />
        </>
      ) : null}
      {dialog}
    </div>
  );
}

/** The event's host links and its activity, read when the event is picked and again on request. */
function useHostAccess(eventId: number | null) {
  const [links, setLinks] = useState<Loaded<HostLink>>({ status: "idle" });
  const [activity, setActivity] = useState<Loaded<ActivityEntry>>({ status: "idle" });
  // Whether a full page came back last, so older entries may be there; and an older page being read.
  const [older, setOlder] = useState<Older>("none");

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
    setLinks({ status: eventId === null ? "idle" : "loading" });
    setActivity({ status: eventId === null ? "idle" : "loading" });
    if (eventId !== null) void load(eventId);
  }, [eventId, load]);
  return { links, activity, older, load, loadOlder };
}

/** The link just made: its QR code for the host's phone, and the link itself to send. */
function MadeLink({ made }: { made: NewHostLink }) {
  return (
    <div className="host-access-made" role="status">
      <p>
        Link for <strong>{made.label}</strong>: scan the code with the host's phone, or send them the link.
      </p>
      <img className="host-access-qr" src={made.qrCodeImage} alt={`QR code of the host link for ${made.label}`} />
      <label className="host-access-url">
        <span>Host link</span>
        <input readOnly value={made.url} onFocus={(e) => e.currentTarget.select()} />
      </label>
    </div>
  );
}

/** The event's host links: each with until when it works, and Revoke while it does. */
function HostLinks(props: { links: Loaded<HostLink>; zone: string; onRetry(): void; onRevoke(link: HostLink): void }) {
  const { links, zone } = props;
  return (
    <>
      {links.status === "loading" ? (
        <p role="status" className="admin-loading">
          Loading the host links...
        </p>
      ) : null}
      {links.status === "error" ? (
        <ErrorNotice message="Couldn't load the host links." onRetry={() => props.onRetry()} />
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
                    onClick={() => props.onRevoke(link)}
                  >
                    Revoke
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
    </>
  );
}
