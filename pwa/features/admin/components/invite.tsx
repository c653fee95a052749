import { useConfirm } from "../../../components/ui/confirm-dialog.tsx";
import { EventPicker } from "../../../components/ui/event-picker.tsx";
import type { useAdminEvents } from "../use-admin-events.ts";
import { AnnouncementList, useAnnouncementList } from "./announcement-list.tsx";
import { InviteCompose } from "./invite-compose.tsx";

type Props = {
  events: ReturnType<typeof useAdminEvents>;
  eventId: number | null;
  onPick(id: number | null): void;
};

/**
 * The **Invite** tab (docs/api.md, Invitations): pick an upcoming event and an audience, write the
 * text (the event's link where `{link}` is), see the counts per channel and the messages exactly as
 * they arrive, and **Send** behind a confirmation. Below, the event's announcements with their
 * progress (`sent 120 of 310`) and bookings, refreshed while any is still going out.
 */
export function Invite({ events, eventId, onPick }: Props) {
  // Only nights still to come can be announced: the picker offers those.
  const now = Date.now();
  const upcoming: Props["events"] =
    events.state.status === "ready"
      ? {
          ...events,
          state: {
            status: "ready",
            events: events.state.events.filter((e) => e.status === "upcoming" && Date.parse(e.startsAt) > now),
          },
        }
      : events;
  const event = upcoming.state.status === "ready" ? upcoming.state.events.find((e) => e.id === eventId) : undefined;
  const zone = event?.timeZone ?? "UTC";
  const { list, loadList } = useAnnouncementList(eventId);
  const { confirm, dialog } = useConfirm();

  return (
    <div className="invite">
      <EventPicker id="invite-event" events={upcoming} value={event ? eventId : null} onChange={onPick} />
      {!event ? <p className="empty">Choose an upcoming event to invite people to.</p> : null}
      <InviteCompose event={event} eventId={eventId} confirm={confirm} onSent={(id) => loadList(id, true)} />
      {event ? <AnnouncementList list={list} eventId={eventId} zone={zone} loadList={loadList} /> : null}
      {dialog}
    </div>
  );
}
