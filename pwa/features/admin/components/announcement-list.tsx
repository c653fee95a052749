import { useCallback, useEffect, useId } from "react";
import { ReplyView } from "../../../components/ui/reply-view.tsx";
import { type ReplyState, useReply } from "../../../lib/use-reply.ts";
import { type AnnouncementRow, bookedLabel, isSending, listAnnouncements, progressLabel } from "../announcements.ts";
import { formatAtVenue } from "../format.ts";

// The Invite tab's list of the event's announcements, with their progress and bookings (invite.tsx).

type Listed = { status: "error" } | { status: "ready"; rows: AnnouncementRow[] };
export type ListState = ReplyState<Listed>;

/** How often the list refreshes while an announcement is still going out. */
const POLL_MS = 3000;

/** The event's announcements, read again every few seconds while any is still going out. */
export function useAnnouncementList(eventId: number | null) {
  const {
    state: list,
    reload,
    refresh,
  } = useReply(eventId, {
    async load(id: number): Promise<Listed> {
      const reply = await listAnnouncements(id);
      return reply.ok ? { status: "ready", rows: reply.data } : { status: "error" };
    },
    failed(error): Listed {
      console.warn(error);
      return { status: "error" };
    },
  });
  // `quiet`: read again in place (after a send, and while one is going out).
  const loadList = useCallback(async (_id: number, quiet = false) => (quiet ? refresh() : reload()), [reload, refresh]);

  // While any announcement is still going out, its progress is read again every few seconds.
  const sending = list.status === "ready" && list.rows.some(isSending);
  useEffect(() => {
    if (!sending || eventId === null) return;
    const timer = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [sending, eventId, refresh]);
  return { list, loadList };
}

type ListProps = {
  list: ListState;
  eventId: number | null;
  zone: string;
  loadList(id: number, quiet?: boolean): Promise<void>;
};

export function AnnouncementList({ list, eventId, zone, loadList }: ListProps) {
  const ids = useId();
  return (
    <section className="invite-section" aria-labelledby={`${ids}-sent`}>
      <div className="host-access-head">
        <h2 id={`${ids}-sent`}>Announcements</h2>
        <button type="button" className="button" onClick={() => eventId !== null && void loadList(eventId)}>
          Refresh
        </button>
      </div>
      <ReplyView
        state={list}
        loading={
          <p role="status" className="admin-loading">
            Loading the announcements...
          </p>
        }
        error="Couldn't load the announcements."
        onRetry={() => eventId !== null && loadList(eventId)}
        isEmpty={(ready) => ready.rows.length === 0}
        empty={<p className="empty">No announcements for this event yet.</p>}
      >
        {({ rows }) => (
          <ol className="invite-list" aria-label="Announcements, newest first">
            {rows.map((row) => (
              <li key={row.id} className="invite-row">
                <div className="invite-row-head">
                  <span>{formatAtVenue(row.createdAt, zone)}</span>
                  <span>{row.channels.map((c) => (c === "sms" ? "Text message" : "Email")).join(" and ")}</span>
                </div>
                <p className="invite-row-text">{row.text}</p>
                <p className="invite-row-numbers">
                  <strong>{progressLabel(row)}</strong>
                  {row.progress.suppressed > 0 ? ` · ${row.progress.suppressed} opted out before their turn` : ""}
                  {row.progress.failed > 0 ? ` · ${row.progress.failed} failed` : ""}
                  {" · "}
                  {bookedLabel(row)}
                </p>
              </li>
            ))}
          </ol>
        )}
      </ReplyView>
    </section>
  );
}
