import type { AdminEventListItem } from "../../../api/services/admin-events.ts";
import type { CancelResult } from "../../../api/services/cancel-event.ts";
import type { AdminEventSummary as EventNumbers } from "../../../api/services/event-summary.ts";
import type { EventDetail as AdminEventDetail } from "../../../api/services/events.ts";
import type { EventParticipant as Participant } from "../../../api/services/participants.ts";
import { type ApiReply, apiGet, apiPost } from "../../lib/api.ts";
import { useAdminStore } from "./admin-store.ts";

// Every admin call goes through here so a lapsed session (401) locks the panel wherever it happens.
async function guarded<T>(call: Promise<ApiReply<T>>): Promise<ApiReply<T>> {
  const reply = await call;
  if (reply.status === 401) useAdminStore.getState().lock();
  return reply;
}

// The API's own types (types only: nothing of the server is bundled). Both carry the seat plan of a
// balanced event (`seatsMale`/`seatsFemale`, null for one pool) and `SeatsLeft` per gender.
export type AdminEventStatus = AdminEventDetail["event_status"];
export type AdminEventSummary = Pick<
  AdminEventListItem,
  "id" | "event_name" | "EventDateTime" | "event_status" | "SeatAvailabilityPer" | "time_zone"
> &
  Partial<Pick<AdminEventListItem, "seatsMale" | "seatsFemale">>;
export type { AdminEventDetail, EventNumbers, Participant };

export type Failure = { success: false; error?: string };
export type LifecycleReply = { success: true; sent: number; failed: number } | Failure;

/** The configured default zone for new events (EVENT_TIME_ZONE), from the public settings. */
export const eventDefaults = () => apiGet<{ eventTimeZone?: string }>("/api/public-config");

export const adminSession = () => apiGet<{ admin: boolean }>("/api/admin-session");
export const adminLogin = (password: string) => apiPost<{ success: boolean }>("/api/admin-login", { password });
export const adminLogout = () => apiPost<{ success: boolean }>("/api/admin-logout", {});

// The same data as /api/get-events and /api/get-event/{id}, from admin twins the service worker
// does not cache: after Start Event the panel must see "started", not the cached "upcoming".
export const listEvents = () => guarded(apiGet<AdminEventSummary[]>("/api/admin-events"));
export const getEventDetail = (id: number) => guarded(apiGet<AdminEventDetail>(`/api/admin-event/${id}`));

export const saveEvent = (form: FormData) =>
  guarded(apiPost<{ success: true; id: number } | Failure>("/api/save-event", form));

export type EventUpdate = {
  eventid: number;
  eventName: string;
  eventDate: string;
  totalSeats: number;
  eventTime: string;
  eventduration: number;
  fromage: number;
  toage: number;
  timeZone: string;
  eventAddress: string;
  bookingAmount: number;
  /** Both numbers for a balanced event, both null to go back to one pool of seats. */
  seatsMale: number | null;
  seatsFemale: number | null;
};
export const updateEvent = (update: EventUpdate) =>
  guarded(apiPost<{ success: true } | Failure>("/api/update-event", update));

export const startEvent = (eventId: number) => guarded(apiPost<LifecycleReply>("/api/start-event", { eventId }));
export const endEvent = (eventId: number) => guarded(apiPost<LifecycleReply>("/api/end-event", { eventId }));

export const getEventUsers = (eventId: number) => guarded(apiGet<Participant[]>(`/api/get-event-user/${eventId}`));

export const refund = (paymentIntentId: string) =>
  guarded(apiPost<{ success: true; refundId: string } | Failure>("/api/refund", { paymentIntentId }));

/** The Overview's numbers for one event (seats, holds, money, check-ins, matches). */
export const getEventNumbers = (eventId: number) =>
  guarded(apiGet<EventNumbers | Failure>(`/api/admin-event-summary/${eventId}`));

export const cancelEvent = (eventId: number) =>
  guarded(apiPost<({ success: true } & CancelResult) | Failure>("/api/cancel-event", { eventId }));

export const updateEventImage = (eventId: number, image: File) => {
  const form = new FormData();
  form.append("eventid", String(eventId));
  form.append("eventImage", image);
  return guarded(apiPost<{ success: true; event_image: string } | Failure>("/api/update-event-image", form));
};

/** One person in an event's waitlist, first in line first (per gender at a balanced event). */
export type WaitlistRow = {
  position: number;
  name: string;
  phone: string;
  gender: "male" | "female";
  status: string;
  joinedAt: string;
};
export const getWaitlist = (eventId: number) =>
  guarded(apiGet<{ success: true; waitlist: WaitlistRow[] } | Failure>(`/api/admin-event/${eventId}/waitlist`));

/** Where the participants spreadsheet is served (the admin session cookie goes with it). */
export const participantsCsvUrl = (eventId: number) => `/api/admin-event/${eventId}/participants.csv`;
