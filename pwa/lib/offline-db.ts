import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import type { Roster, RosterEvent } from "../../api/night/roster.ts";
import type { CancellationPolicy } from "../../common/cancellation.ts";
import type { EventOfReply } from "../../common/event-wire.ts";
import type { TicketStatus } from "../../common/ticket-status.ts";
import type { MyRounds } from "../features/night/my-rounds.ts";
import type { QueueEntry } from "./offline-queue.ts";

/**
 * The device's own storage: what must survive a lost connection or a closed tab. One database,
 * typed with idb's DBSchema; a change of shape is a new version with its own upgrade step below.
 */

export type SavedTicket = {
  /** `${eventID}:${userID}`: a booking has exactly one ticket. */
  key: string;
  eventID: number;
  userID: number;
  eventName: string;
  /** ISO 8601, UTC, when known. */
  eventDateTime?: string;
  eventLocation?: string;
  /** The venue's IANA zone and the night's length, for the local time and "Add to calendar". */
  timeZone?: string;
  durationHours?: number;
  name: string;
  phone?: string;
  uniqueCode: string;
  /** `data:image/png;base64,…`, so the QR shows without a network. */
  qrCodeImage: string;
  savedAt: number;
  /**
   * The texted ticket link's `add` and `t`: the capability that asks `ticket-status` what the ticket
   * is worth now. Tickets saved before version 3 lack them and keep the status they were saved with.
   */
  bookingId?: number;
  ticketToken?: string;
  /**
   * What the seat cost and the event's cancellation policy, for the ticket's **Cancel my booking**.
   * Tickets saved before they came with the ticket lack them until `ticket-status` brings the policy.
   */
  amountCents?: number;
  cancellationPolicy?: CancellationPolicy;
  /** Its receipt or tax invoice, when it has one (a booking paid before documents existed has none). */
  invoiceNumber?: string | null;
  /** As last heard from the server (`paid` when saved); when it was heard, if ever since saving. */
  status: TicketStatus;
  statusCheckedAt?: number;
};

/** Date (`like`), Friend (`friend`, where the event offers it) or No (`dislike`). */
export type FeedbackValue = "like" | "friend" | "dislike";

/** A tap waiting to reach the server. One per (from, to, event): a newer tap replaces an older one. */
export type QueuedTap = QueueEntry & {
  fromUserID: number;
  toUserID: number;
  eventID: number;
  feedback: FeedbackValue;
  token: string;
};

/** The last choice shown for each partner, whether or not it has been sent yet. */
export type FeedbackChoice = {
  key: string;
  eventID: number;
  fromUserID: number;
  toUserID: number;
  feedback: FeedbackValue;
  clientTs: number;
};

export type CachedPartners = {
  /** `${eventID}:${userID}` */
  key: string;
  partners: { id: number; username: string; image_name: string }[];
  /** The night offers Friend (issue 37); absent in records kept before it. */
  offersFriend?: boolean;
  savedAt: number;
  /**
   * Taps of this page the server refused because the results were already out (`ratings_closed`):
   * counted so the page can say so instead of losing them silently (docs/decisions/021-results.md).
   */
  lateTaps?: number;
};

/**
 * A door check-in (or its undo) waiting to reach the server. One per booking: the latest action on
 * this phone replaces one still waiting. `clientTs` of a check-in is the time the server records.
 */
export type QueuedCheckIn = QueueEntry & {
  eventID: number;
  userID: number;
  action: "check-in" | "undo";
};

/** An event's door roster as last received (the reply itself), kept so the door view opens with no network. */
export type KeptRoster = Roster & { eventID: number; savedAt: number };

/**
 * An event the door's picker offers, as last listed online, by the names of the code
 * (common/event-wire.ts); one kept by an older version has the reply's names, and is mapped as it is
 * read (pwa/features/door/door-api.ts).
 */
export type KeptDoorEvent = EventOfReply<RosterEvent>;

/** A kept roster as the door view reads it: its event by the names of the code. */
export type DoorRoster = Omit<KeptRoster, "event"> & { event: KeptDoorEvent };

/**
 * A guest's rounds as last received, with this phone's clock when it arrived: with the answer's
 * `serverNow` that gives the clock offset, so the countdown goes on after a reload with no network.
 */
export type KeptMyRounds = { key: string; eventID: number; userID: number; reply: MyRounds; receivedAt: number };

export interface OfflineSchema extends DBSchema {
  tickets: { key: string; value: SavedTicket; indexes: { bySavedAt: number } };
  feedbackQueue: { key: string; value: QueuedTap; indexes: { byNextAttempt: number } };
  feedbackChoices: { key: string; value: FeedbackChoice; indexes: { byEventUser: [number, number] } };
  partners: { key: string; value: CachedPartners };
  checkInQueue: { key: string; value: QueuedCheckIn; indexes: { byNextAttempt: number; byEvent: number } };
  doorRosters: { key: number; value: KeptRoster };
  doorEvents: { key: number; value: KeptDoorEvent };
  /** `${eventID}:${userID}` */
  myRounds: { key: string; value: KeptMyRounds };
}

export const OFFLINE_DB_NAME = "saathi-offline";
export const OFFLINE_DB_VERSION = 4;

let opening: Promise<IDBPDatabase<OfflineSchema>> | undefined;

export function offlineDb(): Promise<IDBPDatabase<OfflineSchema>> {
  opening ??= openDB<OfflineSchema>(OFFLINE_DB_NAME, OFFLINE_DB_VERSION, {
    upgrade(db, oldVersion, _newVersion, transaction) {
      // Each step moves the database up one version; a new shape adds the next `if (oldVersion < n) {…}`.
      if (oldVersion < 1) {
        db.createObjectStore("tickets", { keyPath: "key" }).createIndex("bySavedAt", "savedAt");
        db.createObjectStore("feedbackQueue", { keyPath: "key" }).createIndex("byNextAttempt", "nextAttemptAt");
        db.createObjectStore("feedbackChoices", { keyPath: "key" }).createIndex("byEventUser", [
          "eventID",
          "fromUserID",
        ]);
        db.createObjectStore("partners", { keyPath: "key" });
      }
      // Version 2: the door view (staff check-in). New stores only; tickets and taps are untouched.
      if (oldVersion < 2) {
        const checkIns = db.createObjectStore("checkInQueue", { keyPath: "key" });
        checkIns.createIndex("byNextAttempt", "nextAttemptAt");
        checkIns.createIndex("byEvent", "eventID");
        db.createObjectStore("doorRosters", { keyPath: "eventID" });
        db.createObjectStore("doorEvents", { keyPath: "id" });
      }
      // Version 3: tickets know their status. Every ticket saved before was saved from a paid
      // booking's reply, so that is its last known status; only the versionchange transaction's own
      // requests are awaited here, which keeps it open until the last ticket is written.
      if (oldVersion < 3) {
        void (async () => {
          let cursor = await transaction.objectStore("tickets").openCursor();
          while (cursor) {
            if (!cursor.value.status) await cursor.update({ ...cursor.value, status: "paid" });
            cursor = await cursor.continue();
          }
        })();
      }
      // Version 4: the guest's rounds (table, partner, clock). A new store only.
      if (oldVersion < 4) {
        db.createObjectStore("myRounds", { keyPath: "key" });
      }
    },
    blocking() {
      // A newer tab wants to upgrade: let it, and reconnect on the next call.
      void opening?.then((db) => db.close());
      opening = undefined;
    },
  });
  return opening;
}

/** For tests: forget the open connection (fake-indexeddb is reset between them). */
export function resetOfflineDbForTests() {
  opening = undefined;
}

export const ticketKey = (eventID: number, userID: number) => `${eventID}:${userID}`;
export const tapKey = (eventID: number, fromUserID: number, toUserID: number) => `${eventID}:${fromUserID}:${toUserID}`;
export const checkInKey = (eventID: number, userID: number) => `${eventID}:${userID}`;
