import { LINK_PLACEHOLDER } from "../../../common/announcement.ts";
import { venueDayMonth, venueWeekday } from "../../../common/time-zone.ts";
import { guarded } from "../../lib/admin-session.ts";
import { api, type Ok, send } from "../../lib/api.ts";
import type { AdminEventSummary } from "./admin-api.ts";

// The **Invite** tab's calls (docs/api.md, Invitations): the counts and the messages as they will
// arrive, sending, and the event's announcements with their progress.

export type AnnouncementDraft = Parameters<(typeof api)["announcements"]["$post"]>[0]["json"];
export type AnnouncementPreview = Ok<(typeof api)["announcements"]["preview"]["$post"]>;
export type AnnouncementRow = Ok<(typeof api)["admin-event"][":id"]["announcements"]["$get"]>[number];

export const previewAnnouncement = (draft: AnnouncementDraft, signal?: AbortSignal) =>
  guarded(send(api.announcements.preview.$post({ json: draft }, { init: { signal } })));
export const sendAnnouncement = (draft: AnnouncementDraft) => guarded(send(api.announcements.$post({ json: draft })));
export const listAnnouncements = (eventId: number) =>
  guarded(send(api["admin-event"][":id"].announcements.$get({ param: { id: String(eventId) } })));

/**
 * `queued` until its first message goes (`sent 0 of 7` read as a failure), then `sent 120 of 310`:
 * messages sent so far of all the announcement queued.
 */
export const progressLabel = (row: Pick<AnnouncementRow, "progress">) =>
  row.progress.sent === 0 && isSending(row) ? "queued" : `sent ${row.progress.sent} of ${row.progress.total}`;

/** `booked 7 (women 2, men 5)`: paid bookings made through its link. */
export const bookedLabel = (row: Pick<AnnouncementRow, "booked">) =>
  `booked ${row.booked.total} (women ${row.booked.female}, men ${row.booked.male})`;

/** Whether messages of it still wait in the outbox (the list refreshes while any does). */
export const isSending = (row: Pick<AnnouncementRow, "progress">) =>
  row.progress.sent + row.progress.suppressed + row.progress.failed < row.progress.total;

/** `To 120 by text, 95 by email`, for the channels chosen. */
export function recipientsLabel(recipients: { sms: number; email: number }, channels: readonly string[]): string {
  const parts = [
    ...(channels.includes("sms") ? [`${recipients.sms} by text`] : []),
    ...(channels.includes("email") ? [`${recipients.email} by email`] : []),
  ];
  return parts.length ? `To ${parts.join(", ")}` : "Choose how to send it.";
}

/**
 * A first draft naming the event, its day and date on the venue's clock and, at a balanced event,
 * the short side ("3 seats left for men on Saturday 5 December"), with the link's placeholder where
 * the link goes. The date too, since a weekday alone reads as this week's for a night further off.
 */
export function suggestedText(event: Pick<AdminEventSummary, "name" | "startsAt" | "timeZone" | "SeatsLeft">) {
  const ms = Date.parse(event.startsAt);
  const day = Number.isNaN(ms) ? "" : ` on ${venueDayAndDate(ms, event.timeZone)}`;
  const left = event.SeatsLeft;
  if (left && left.male !== left.female && Math.min(left.male, left.female) > 0) {
    const side = left.male < left.female ? "men" : "women";
    const n = Math.min(left.male, left.female);
    return `${n} ${n === 1 ? "seat" : "seats"} left for ${side}${day} at ${event.name}! Book yours: ${LINK_PLACEHOLDER}`;
  }
  return `Seats are open for ${event.name}${day}. Book yours: ${LINK_PLACEHOLDER}`;
}

/** `Tuesday 15 December`, the night's date as the venue's clock shows it. */
function venueDayAndDate(ms: number, zone: string): string {
  return `${venueWeekday(ms, zone, "long")} ${venueDayMonth(ms, zone, "long")}`;
}
