import { create } from "zustand";
import type { DoorRoster, KeptDoorEvent, QueuedCheckIn } from "../../lib/offline-db.ts";
import type { ReplyState } from "../../lib/use-reply.ts";
import { pendingCheckIns, recordCheckIn } from "./check-in-queue.ts";
import { keptRoster, loadDoorEvents, loadRoster } from "./door-api.ts";
import { defaultEventId } from "./roster-view.ts";

// The door's two reads keep their states as useReply's are (ReplyState, shown by ReplyView), but in
// this store, which the door's screens share, with its own order against the check-ins on their way
// (docs/decisions/049-one-hook-for-a-reply.md, "The door").

/** The events to pick from: on their way, kept or fresh, or why not (never idle: they load at once). */
type EventsState = ReplyState<{ status: "ready"; events: KeptDoorEvent[]; kept: boolean } | Failed, "events">;

/** The chosen event's roster: none chosen (`idle`), on its way, kept or fresh, or why not. */
type RosterState = ReplyState<{ status: "ready"; roster: DoorRoster; kept: boolean } | Failed, number | null>;

type Failed = { status: "error"; message: string };

export type DoorNotice = { id: number; message: string };

type DoorState = {
  events: EventsState;
  eventID: number | null;
  roster: RosterState;
  /** This phone's taps for the chosen event that the server does not have yet. */
  pending: QueuedCheckIn[];
  /** userID → when this phone checked them in; Undo is offered for a minute after. */
  recent: Record<number, number>;
  notices: DoorNotice[];
  loadEvents(): Promise<void>;
  select(eventID: number | null): Promise<void>;
  /** The roster from the server (quietly: keep showing the current one while it loads). */
  refresh(options?: { quiet?: boolean }): Promise<void>;
  /** A check-in reached the server: show the kept roster, which now has the server's time. */
  synced(): Promise<void>;
  reloadPending(): Promise<void>;
  checkIn(userID: number): Promise<void>;
  undo(userID: number): Promise<void>;
  notify(message: string): void;
  dismiss(id: number): void;
};

export const UNDO_WINDOW_MS = 60_000;

// The event chosen on this phone, so a reload at the door (offline too) comes back to it; forgotten
// after 12 hours, when the next night's default is the better guess.
const REMEMBER_KEY = "saathi.door.event";
const REMEMBER_MS = 12 * 60 * 60 * 1000;

function remembered(events: KeptDoorEvent[]): number | null {
  try {
    const saved = JSON.parse(localStorage.getItem(REMEMBER_KEY) ?? "null") as { id?: unknown; at?: unknown } | null;
    if (typeof saved?.id !== "number" || typeof saved.at !== "number" || Date.now() - saved.at > REMEMBER_MS) {
      return null;
    }
    return events.some((e) => e.id === saved.id) ? saved.id : null;
  } catch {
    return null;
  }
}

function remember(eventID: number | null) {
  try {
    if (eventID === null) localStorage.removeItem(REMEMBER_KEY);
    else localStorage.setItem(REMEMBER_KEY, JSON.stringify({ id: eventID, at: Date.now() }));
  } catch {
    // Storage refused: the default event is chosen next time instead.
  }
}

let nextNoticeId = 1;
// Bumped whenever a check-in reaches the server, so a roster fetched while it was on its way (and
// missing it) is fetched again rather than shown.
let syncGeneration = 0;

export const useDoorStore = create<DoorState>()((set, get) => ({
  events: { status: "loading" },
  eventID: null,
  roster: { status: "idle" },
  pending: [],
  recent: {},
  notices: [],

  async loadEvents() {
    const result = await loadDoorEvents();
    if (result.status === "locked") return;
    if (result.status === "error") {
      set({ events: { status: "error", message: result.message } });
      return;
    }
    set({ events: { status: "ready", events: result.data, kept: result.kept } });
    if (get().eventID === null) {
      const id = remembered(result.data) ?? defaultEventId(result.data, Date.now());
      if (id !== null) await get().select(id);
    } else {
      // Back on the door view (after a login, say): what is shown may be old.
      await get().refresh({ quiet: true });
    }
  },

  async select(eventID) {
    if (eventID === get().eventID && get().roster.status !== "idle") return;
    remember(eventID);
    set({ eventID, roster: eventID === null ? { status: "idle" } : { status: "loading" }, pending: [], recent: {} });
    if (eventID !== null) await get().refresh();
  },

  async refresh(options = {}) {
    const eventID = get().eventID;
    if (eventID === null) return;
    if (!options.quiet) set({ roster: { status: "loading" } });
    for (let round = 0; round < 3; round++) {
      const generation = syncGeneration;
      const result = await loadRoster(eventID);
      if (get().eventID !== eventID || result.status === "locked") return;
      if (result.status === "error") {
        // A background refresh that fails keeps what is on screen.
        if (!options.quiet || get().roster.status !== "ready")
          set({ roster: { status: "error", message: result.message } });
        return;
      }
      if (!result.kept && generation !== syncGeneration) continue;
      set({ roster: { status: "ready", roster: result.data, kept: result.kept } });
      break;
    }
    await get().reloadPending();
  },

  async synced() {
    syncGeneration++;
    const eventID = get().eventID;
    const current = get().roster;
    if (eventID === null || current.status !== "ready") return;
    const roster = await keptRoster(eventID);
    if (roster && get().eventID === eventID) set({ roster: { ...current, roster } });
    await get().reloadPending();
  },

  async reloadPending() {
    const eventID = get().eventID;
    if (eventID === null) return;
    try {
      const pending = await pendingCheckIns(eventID);
      if (get().eventID === eventID) set({ pending });
    } catch (error) {
      console.warn(error);
    }
  },

  async checkIn(userID) {
    const eventID = get().eventID;
    if (eventID === null) return;
    try {
      const entry = await recordCheckIn(eventID, userID, "check-in");
      if (get().eventID === eventID) set((s) => ({ recent: { ...s.recent, [userID]: entry.clientTs } }));
    } catch (error) {
      // Storage refused (private mode, a full disk): say so rather than pretend it was kept.
      console.warn(error);
      get().notify("Couldn't save the check-in on this phone. Please try again.");
      return;
    }
    await get().reloadPending();
  },

  async undo(userID) {
    const eventID = get().eventID;
    if (eventID === null) return;
    try {
      await recordCheckIn(eventID, userID, "undo");
    } catch (error) {
      console.warn(error);
      get().notify("Couldn't save the undo on this phone. Please try again.");
      return;
    }
    await get().reloadPending();
    set((s) => {
      const { [userID]: _, ...recent } = s.recent;
      return { recent };
    });
  },

  notify(message) {
    set((s) => ({ notices: [...s.notices, { id: nextNoticeId++, message }] }));
  },
  dismiss(id) {
    set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
  },
}));
