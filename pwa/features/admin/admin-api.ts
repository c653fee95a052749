import { type EventOfReply, eventOfReply } from "../../../common/event-wire.ts";
import { guarded } from "../../lib/admin-session.ts";
import { type ApiReply, api, mapReply, type Ok, send } from "../../lib/api.ts";

// Every admin call goes through guarded (lib/admin-session.ts): a lapsed session (401) locks the panel.
const id = (n: number) => ({ param: { id: String(n) } });

// The replies are the server's own types, read from its routes: a field renamed there fails here.
// Both event shapes carry the seat plan of a balanced event (`seatsMale`/`seatsFemale`, null for one
// pool) and `SeatsLeft` per gender. An event's fields have the names of the code: each reply carrying
// them is mapped below as it arrives (common/event-wire.ts, eventOfReply).
export type AdminEventSummary = EventOfReply<Ok<(typeof api)["admin-events"]["$get"]>[number]>;
export type AdminEventDetail = EventOfReply<Ok<(typeof api)["admin-event"][":id"]["$get"]>>;
export type AdminEventStatus = AdminEventDetail["status"];
/** The Overview's numbers for one event (seats, holds, money, check-ins, matches). */
export type EventNumbers = Ok<(typeof api)["admin-event-summary"][":id"]["$get"]>;
/** One booking of an event; its `priceCents` is what the booking paid. */
export type Participant = EventOfReply<Ok<(typeof api)["get-event-user"][":id"]["$get"]>[number]>;
/** One person in an event's waitlist, first in line first (per gender at a balanced event). */
export type WaitlistRow = Ok<(typeof api)["admin-event"][":id"]["waitlist"]["$get"]>["waitlist"][number];
export type LifecycleReply = ApiReply<Ok<(typeof api)["start-event"]["$post"]>>;

/** The wallets' set-up and when the Apple Wallet certificate expires (the desk's warning). */
export type WalletStatus = Ok<(typeof api)["wallet-status"]["$get"]>;
export const getWalletStatus = () => guarded(send(api["wallet-status"].$get()));

/** The configured default zone for new events (EVENT_TIME_ZONE), from the public settings. */
export const eventDefaults = () => send(api["public-config"].$get());

// The same data as /api/get-events and /api/get-event/{id}, from admin twins the service worker
// does not cache: after Start Event the panel must see "started", not the cached "upcoming".
export const listEvents = async () =>
  mapReply(await guarded(send(api["admin-events"].$get())), (events) => events.map(eventOfReply));
export const getEventDetail = async (eventId: number) =>
  mapReply(await guarded(send(api["admin-event"][":id"].$get(id(eventId)))), eventOfReply);

export type NewEvent = Parameters<(typeof api)["save-event"]["$post"]>[0]["form"];
export const saveEvent = (form: NewEvent) => guarded(send(api["save-event"].$post({ form })));

export type EventUpdate = Parameters<(typeof api)["update-event"]["$post"]>[0]["json"];
export const updateEvent = (update: EventUpdate) => guarded(send(api["update-event"].$post({ json: update })));

export const startEvent = (eventId: number) => guarded(send(api["start-event"].$post({ json: { eventId } })));
export const openDoorsNow = (eventId: number) => guarded(send(api["open-doors"].$post({ json: { eventId } })));
export const endEvent = (eventId: number) => guarded(send(api["end-event"].$post({ json: { eventId } })));
export const cancelEvent = (eventId: number) => guarded(send(api["cancel-event"].$post({ json: { eventId } })));

export const getEventUsers = async (eventId: number) =>
  mapReply(await guarded(send(api["get-event-user"][":id"].$get(id(eventId)))), (people) => people.map(eventOfReply));

export const refund = (paymentIntentId: string) => guarded(send(api.refund.$post({ json: { paymentIntentId } })));

export const getEventNumbers = (eventId: number) => guarded(send(api["admin-event-summary"][":id"].$get(id(eventId))));

export const updateEventImage = (eventId: number, image: File) =>
  guarded(send(api["update-event-image"].$post({ form: { eventid: String(eventId), eventImage: image } })));

export const getWaitlist = (eventId: number) => guarded(send(api["admin-event"][":id"].waitlist.$get(id(eventId))));

/** Where the participants spreadsheet is served (the admin session cookie goes with it). */
export const participantsCsvUrl = (eventId: number) => api["admin-event"][":id"]["participants.csv"].$path(id(eventId));

// Host links and the activity log (docs/decisions/022-host-access.md).
export type HostLink = Ok<(typeof api)["admin-event"][":id"]["host-links"]["$get"]>[number];
export type NewHostLink = Ok<(typeof api)["host-links"]["$post"]>;
export type ActivityEntry = Ok<(typeof api)["admin-event"][":id"]["activity"]["$get"]>[number];

export const listHostLinks = (eventID: number) =>
  guarded(send(api["admin-event"][":id"]["host-links"].$get(id(eventID))));
export const createHostLink = (eventID: number, label: string) =>
  guarded(send(api["host-links"].$post({ json: { eventID, label } })));
export const revokeHostLink = (linkId: number) =>
  guarded(send(api["revoke-host-link"].$post({ json: { id: linkId } })));
/** Entries per page of the Activity view; **Older entries** reads the next page. */
export const ACTIVITY_PAGE_SIZE = 50;
/** One page of the log, newest first; `before`: the last entry's id of the page already shown. */
export const getActivity = (eventID: number, before?: number) =>
  guarded(
    send(
      api["admin-event"][":id"].activity.$get({
        ...id(eventID),
        query: { limit: String(ACTIVITY_PAGE_SIZE), ...(before === undefined ? {} : { before: String(before) }) },
      }),
    ),
  );
