import type { RosterEvent } from "../../../api/night/roster.ts";
import { eventOfReply } from "../../../common/event-wire.ts";
import { useAdminStore } from "../../lib/admin-store.ts";
import { api, CallFailed, imageUrl, send } from "../../lib/api.ts";
import { keepForOffline } from "../../lib/offline-cache.ts";
import { type DoorRoster, type KeptDoorEvent, type KeptRoster, offlineDb } from "../../lib/offline-db.ts";
import { zoneOf } from "./roster-view.ts";

/**
 * The door's two reads. Each answer is kept on the phone as it arrives, and read back from there when
 * the network is gone, so the door view opens at a venue with no Wi-Fi after one visit with it.
 */

export type Loaded<T> =
  | { status: "ready"; data: T; kept: boolean; savedAt: number }
  /** 401: the admin session lapsed; the password modal takes over. */
  | { status: "locked" }
  | { status: "error"; message: string };

const OFFLINE_NO_COPY = "You're offline, and this isn't kept on this phone yet. Open the door view once online.";

/**
 * The fields the door keeps of an event, from the organiser's list or a roster's own event (typed by
 * their routes; a roster kept before `doorsOpenAt` existed has none, and a zone-less one reads as
 * Sydney's, see zoneOf). By the names of the code (common/event-wire.ts): a reply's event is mapped
 * here, and so is one this phone kept by the reply's names before they were mapped.
 */
function toDoorEvent(reply: RosterEvent | KeptDoorEvent): KeptDoorEvent {
  const e: KeptDoorEvent = "name" in reply ? reply : eventOfReply(reply);
  return {
    id: e.id,
    name: e.name,
    startsAt: e.startsAt,
    status: e.status,
    timeZone: zoneOf(e),
    ...(e.doorsOpenAt ? { doorsOpenAt: e.doorsOpenAt } : {}),
  };
}

async function keptEvents(): Promise<KeptDoorEvent[] | null> {
  try {
    const all = await (await offlineDb()).getAll("doorEvents");
    return all.length ? all.map(toDoorEvent).sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt)) : null;
  } catch {
    return null;
  }
}

export async function loadDoorEvents(): Promise<Loaded<KeptDoorEvent[]>> {
  const host = useAdminStore.getState().host;
  if (host) return hostDoorEvents(host.eventID);
  let failure = OFFLINE_NO_COPY;
  try {
    const reply = await send(api["admin-events"].$get());
    if (reply.status === 401) {
      useAdminStore.getState().lock();
      return { status: "locked" };
    }
    if (reply.ok) {
      const events = reply.data.map(toDoorEvent);
      try {
        const tx = (await offlineDb()).transaction("doorEvents", "readwrite");
        await Promise.all([tx.store.clear(), ...events.map((e) => tx.store.put(e)), tx.done]);
      } catch {
        // Storage refused (private mode): the list still shows, it just won't open offline.
      }
      return { status: "ready", data: events, kept: false, savedAt: Date.now() };
    }
    failure = "Couldn't load the events.";
  } catch (error) {
    if (!(error instanceof CallFailed)) throw error;
  }
  const kept = await keptEvents();
  return kept ? { status: "ready", data: kept, kept: true, savedAt: 0 } : { status: "error", message: failure };
}

/**
 * A host sees one event, and may not read the list of events: the roster's own event stands for the
 * list, online or (from what this phone kept) offline.
 */
async function hostDoorEvents(eventID: number): Promise<Loaded<KeptDoorEvent[]>> {
  const roster = await loadRoster(eventID);
  if (roster.status !== "ready") return roster;
  return { status: "ready", data: [toDoorEvent(roster.data.event)], kept: roster.kept, savedAt: roster.savedAt };
}

/** A roster as it came (and is kept: the reply itself), with its event by the names of the code. */
const rosterView = (roster: KeptRoster): DoorRoster => ({ ...roster, event: toDoorEvent(roster.event) });

/** The roster as this phone last kept it (after a sync, with the server's check-in times). */
export async function keptRoster(eventID: number): Promise<DoorRoster | undefined> {
  try {
    const kept = await (await offlineDb()).get("doorRosters", eventID);
    return kept && rosterView(kept);
  } catch {
    return undefined;
  }
}

export async function loadRoster(eventID: number): Promise<Loaded<DoorRoster>> {
  let failure = OFFLINE_NO_COPY;
  try {
    const reply = await send(api["admin-event"][":id"].roster.$get({ param: { id: String(eventID) } }));
    if (reply.status === 401) {
      useAdminStore.getState().lock();
      return { status: "locked" };
    }
    if (!reply.ok && reply.data.code === "not_found")
      return { status: "error", message: "This event no longer exists." };
    if (reply.ok) {
      const roster: KeptRoster = { ...reply.data, eventID, savedAt: Date.now() };
      try {
        await (await offlineDb()).put("doorRosters", roster);
      } catch {
        // Storage refused: the roster still shows, it just won't open offline.
      }
      // The photos too, so a reload without a network still shows faces (the service worker serves
      // /api/images/ from this cache).
      void keepForOffline(
        "images",
        roster.attendees.map((a) => imageUrl(a.thumbName)),
      );
      return { status: "ready", data: rosterView(roster), kept: false, savedAt: roster.savedAt };
    }
    failure = "Couldn't load the attendees.";
  } catch (error) {
    if (!(error instanceof CallFailed)) throw error;
  }
  const kept = await keptRoster(eventID);
  return kept
    ? { status: "ready", data: kept, kept: true, savedAt: kept.savedAt }
    : { status: "error", message: failure };
}

/**
 * **Open doors now**: check-in opens at once, without starting the night. Answers the doors-open time
 * (now, or the earlier one already set), or an error message to show.
 */
export async function openDoors(
  eventId: number,
): Promise<{ ok: true; doorsOpenAt: string } | { ok: false; message: string }> {
  try {
    const reply = await send(api["open-doors"].$post({ json: { eventId } }));
    if (reply.ok) return { ok: true, doorsOpenAt: reply.data.doorsOpenAt };
    if (reply.status === 401) useAdminStore.getState().lock();
    return { ok: false, message: reply.data.error || "Couldn't open the doors." };
  } catch (error) {
    if (!(error instanceof CallFailed)) throw error;
    return { ok: false, message: "Couldn't open the doors: the server could not be reached." };
  }
}
