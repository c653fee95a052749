import { type DBSchema, type IDBPDatabase, openDB } from "idb";

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
  name: string;
  phone?: string;
  uniqueCode: string;
  /** `data:image/png;base64,…`, so the QR shows without a network. */
  qrCodeImage: string;
  savedAt: number;
};

export type FeedbackValue = "like" | "dislike";

/** A tap waiting to reach the server. One per (from, to, event): a newer tap replaces an older one. */
export type QueuedTap = {
  key: string;
  fromUserID: number;
  toUserID: number;
  eventID: number;
  feedback: FeedbackValue;
  token: string;
  clientTs: number;
  attempts: number;
  nextAttemptAt: number;
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
  savedAt: number;
};

interface OfflineSchema extends DBSchema {
  tickets: { key: string; value: SavedTicket; indexes: { bySavedAt: number } };
  feedbackQueue: { key: string; value: QueuedTap; indexes: { byNextAttempt: number } };
  feedbackChoices: { key: string; value: FeedbackChoice; indexes: { byEventUser: [number, number] } };
  partners: { key: string; value: CachedPartners };
}

export const OFFLINE_DB_NAME = "saathi-offline";
export const OFFLINE_DB_VERSION = 1;

let opening: Promise<IDBPDatabase<OfflineSchema>> | undefined;

export function offlineDb(): Promise<IDBPDatabase<OfflineSchema>> {
  opening ??= openDB<OfflineSchema>(OFFLINE_DB_NAME, OFFLINE_DB_VERSION, {
    upgrade(db, oldVersion) {
      // Each step moves the database up one version; a new shape adds `if (oldVersion < 2) {…}`.
      if (oldVersion < 1) {
        db.createObjectStore("tickets", { keyPath: "key" }).createIndex("bySavedAt", "savedAt");
        db.createObjectStore("feedbackQueue", { keyPath: "key" }).createIndex("byNextAttempt", "nextAttemptAt");
        db.createObjectStore("feedbackChoices", { keyPath: "key" }).createIndex("byEventUser", [
          "eventID",
          "fromUserID",
        ]);
        db.createObjectStore("partners", { keyPath: "key" });
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
