import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { openDB } from "idb";
import { beforeEach, describe, expect, it } from "vitest";
import { pinClock } from "../../test/clock.ts";
import { OFFLINE_DB_NAME, OFFLINE_DB_VERSION, offlineDb, resetOfflineDbForTests } from "./offline-db.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetOfflineDbForTests();
});

describe("the device's database", () => {
  it("upgrades a version 1 database (tickets and taps already on the phone) without losing anything", async () => {
    // Exactly what version 1 created, with a saved ticket and a tap still waiting.
    const v1 = await openDB(OFFLINE_DB_NAME, 1, {
      upgrade(db) {
        db.createObjectStore("tickets", { keyPath: "key" }).createIndex("bySavedAt", "savedAt");
        db.createObjectStore("feedbackQueue", { keyPath: "key" }).createIndex("byNextAttempt", "nextAttemptAt");
        db.createObjectStore("feedbackChoices", { keyPath: "key" }).createIndex("byEventUser", [
          "eventID",
          "fromUserID",
        ]);
        db.createObjectStore("partners", { keyPath: "key" });
      },
    });
    const ticket = {
      key: "3:9",
      eventID: 3,
      userID: 9,
      eventName: "Harbour Mixer",
      name: "Asha",
      uniqueCode: "ABCDEFGHJK",
      qrCodeImage: "data:image/png;base64,AAAA",
      savedAt: 1,
    };
    const tap = {
      key: "3:9:10",
      fromUserID: 9,
      toUserID: 10,
      eventID: 3,
      feedback: "like",
      token: "t",
      clientTs: 5,
      attempts: 2,
      nextAttemptAt: 9,
    };
    await v1.put("tickets", ticket);
    await v1.put("feedbackQueue", tap);
    v1.close();

    const db = await offlineDb();
    expect(db.version).toBe(OFFLINE_DB_VERSION);
    // Kept whole; since version 3 a ticket knows its status, and one saved before was a paid booking's.
    expect(await db.get("tickets", "3:9")).toEqual({ ...ticket, status: "paid" });
    expect(await db.getAllFromIndex("feedbackQueue", "byNextAttempt")).toEqual([tap]);
    expect([...db.objectStoreNames].sort()).toEqual([
      "checkInQueue",
      "doorEvents",
      "doorRosters",
      "feedbackChoices",
      "feedbackQueue",
      "myRounds",
      "partners",
      "tickets",
    ]);
    expect([...db.transaction("checkInQueue").store.indexNames].sort()).toEqual(["byEvent", "byNextAttempt"]);
  });

  it("upgrades a version 2 database (a door roster kept for the night) and keeps a guest's rounds", async () => {
    const v2 = await openDB(OFFLINE_DB_NAME, 2, {
      upgrade(db) {
        for (const name of ["tickets", "feedbackQueue", "feedbackChoices", "partners", "checkInQueue"]) {
          db.createObjectStore(name, { keyPath: "key" });
        }
        db.createObjectStore("doorRosters", { keyPath: "eventID" });
        db.createObjectStore("doorEvents", { keyPath: "id" });
      },
    });
    const roster = { eventID: 4, savedAt: 1, attendees: [], refunded: [] };
    await v2.put("doorRosters", roster);
    v2.close();

    const db = await offlineDb();
    expect(await db.get("doorRosters", 4)).toEqual(roster);
    const kept = {
      key: "4:9",
      eventID: 4,
      userID: 9,
      receivedAt: 1_000,
      reply: {
        status: "running" as const,
        current: 1,
        phase: "round" as const,
        phaseEndsAt: "2026-11-29T20:05:00.000Z",
        serverNow: "2026-11-29T20:00:00.000Z",
        schedule: [{ round: 1, table: 2, partner: { id: 5, username: "Dev", image_name: "d.jpg" } }],
        announcement: null,
      },
    };
    await db.put("myRounds", kept);
    expect(await db.get("myRounds", "4:9")).toEqual(kept);
  });

  it("upgrades a version 2 database: saved tickets keep everything and become paid, the door's queue is untouched", async () => {
    const v2 = await openDB(OFFLINE_DB_NAME, 2, {
      upgrade(db) {
        db.createObjectStore("tickets", { keyPath: "key" }).createIndex("bySavedAt", "savedAt");
        db.createObjectStore("feedbackQueue", { keyPath: "key" }).createIndex("byNextAttempt", "nextAttemptAt");
        db.createObjectStore("feedbackChoices", { keyPath: "key" }).createIndex("byEventUser", [
          "eventID",
          "fromUserID",
        ]);
        db.createObjectStore("partners", { keyPath: "key" });
        const checkIns = db.createObjectStore("checkInQueue", { keyPath: "key" });
        checkIns.createIndex("byNextAttempt", "nextAttemptAt");
        checkIns.createIndex("byEvent", "eventID");
        db.createObjectStore("doorRosters", { keyPath: "eventID" });
        db.createObjectStore("doorEvents", { keyPath: "id" });
      },
    });
    const tickets = [1, 2, 3].map((n) => ({
      key: `${n}:9`,
      eventID: n,
      userID: 9,
      eventName: `Night ${n}`,
      eventDateTime: `2031-0${n}-01T08:00:00.000Z`,
      name: "Asha",
      uniqueCode: "ABCDEFGHJK",
      qrCodeImage: "data:image/png;base64,AAAA",
      savedAt: n,
    }));
    for (const ticket of tickets) await v2.put("tickets", ticket);
    const checkIn = {
      key: "1:9",
      eventID: 1,
      userID: 9,
      action: "check-in",
      clientTs: 5,
      attempts: 0,
      nextAttemptAt: 0,
    };
    await v2.put("checkInQueue", checkIn);
    v2.close();

    const db = await offlineDb();
    expect(db.version).toBe(4);
    expect(await db.getAll("tickets")).toEqual(tickets.map((t) => ({ ...t, status: "paid" })));
    expect(await db.getAll("checkInQueue")).toEqual([checkIn]);
  });
});
