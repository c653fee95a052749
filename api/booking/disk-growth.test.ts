import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, users } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer, verifiedPhoneBrowser } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../../test/fixtures.ts";
import { createCheckout, detailsForm, newMobile, pay } from "../../test/suites/booking-flow.ts";
import { backgroundJobs } from "../ops/jobs.ts";
import { createScheduler } from "../ops/scheduler.ts";
import { sweepUploads } from "../ops/upload-sweep.ts";
import { NO_PHOTO, storeImage } from "./images.ts";

// Disk growth by repeated saves and data at rest (docs/decisions/012-disk-and-personal-data.md): a verified phone cannot fill the disk
// with photos, a full event costs no photo work, the upload sweep deletes what no booking needs, and
// uploads are the server account's alone.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let photo: Uint8Array;
beforeAll(async () => {
  photo = new Uint8Array(await makeImage("jpeg", 320, 240));
});

async function save(browser: BrowserClient, phone: string, eventId: number, image: Uint8Array = photo) {
  const response = await browser.postForm("/api/save-user-details", detailsForm({ phone, eventId, image }));
  return { status: response.status, body: (await response.json()) as { success: boolean; userID?: number } };
}

const jpgs = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".jpg"));
const mode = (path: string) => statSync(path).mode & 0o777;

describe("one phone saving its details again and again", () => {
  // Every request comes from 127.0.0.1: this suite is about phones, not about the address.
  const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000" } });

  it("keeps one photo and thumbnail on disk, however often it saves", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    const before = jpgs(env.UPLOADS_DIR);
    for (let i = 0; i < 6; i++) expect((await save(browser, phone, event.id)).status).toBe(200);

    const added = jpgs(env.UPLOADS_DIR).filter((f) => !before.includes(f));
    expect(added).toHaveLength(2);
    // Every row of the phone's earlier holds names that one photo: a late payment for an old hold
    // still shows the person's face.
    const rows = db
      .select({ status: bookings.status, imageName: users.imageName, thumbName: users.thumbName })
      .from(bookings)
      .innerJoin(users, eq(users.id, bookings.userId))
      .where(eq(bookings.eventId, event.id))
      .all();
    expect(rows.map((r) => r.status).sort()).toEqual([
      "held",
      "released",
      "released",
      "released",
      "released",
      "released",
    ]);
    expect(new Set(rows.flatMap((r) => [r.imageName, r.thumbName]))).toEqual(new Set(added));
    for (const name of added) expect((await fetch(`${server.url}/api/images/${name}`)).status).toBe(200);
  });

  it("answers the 11th save in an hour with 429, and saves again an hour later", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    for (let i = 0; i < 10; i++) expect((await save(browser, phone, event.id)).status).toBe(200);
    const heldBefore = db.select().from(bookings).where(eq(bookings.phone, phone)).all();
    const filesBefore = jpgs(env.UPLOADS_DIR);

    const refused = await save(browser, phone, event.id);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: expect.any(String), code: "rate_limited" });
    expect(db.select().from(bookings).where(eq(bookings.phone, phone)).all()).toEqual(heldBefore);
    expect(jpgs(env.UPLOADS_DIR)).toEqual(filesBefore);

    server.advance(HOUR + 1000);
    expect((await save(verifiedPhoneBrowser(server, phone), phone, event.id)).status).toBe(200);
  });
});

describe("saves from one address", () => {
  const server = suiteTestServer();

  it("answers the 11th repeated save in an hour from one address with 429, whatever the phone", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 30 });
    // Refused for want of a verified phone: these never count.
    for (let i = 0; i < 12; i++) {
      const phone = newMobile();
      expect((await save(browserClient(server.url), phone, event.id)).status).toBe(403);
    }
    // Each verified phone's first save is free for the address (many phones share a carrier's address,
    // docs/decisions/003); the address counts the saves that come again.
    const phones = Array.from({ length: 11 }, () => newMobile());
    for (const phone of phones) {
      expect((await save(verifiedPhoneBrowser(server, phone), phone, event.id)).status).toBe(200);
    }
    for (const phone of phones.slice(0, 10)) {
      expect((await save(verifiedPhoneBrowser(server, phone), phone, event.id)).status).toBe(200);
    }
    const eleventh = phones[10] ?? "";
    const before = db.select().from(bookings).where(eq(bookings.phone, eleventh)).all();
    const refused = await save(verifiedPhoneBrowser(server, eleventh), eleventh, event.id);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: expect.any(String), code: "rate_limited" });
    expect(db.select().from(bookings).where(eq(bookings.phone, eleventh)).all()).toEqual(before);

    server.advance(HOUR + 1000);
    expect((await save(verifiedPhoneBrowser(server, eleventh), eleventh, event.id)).status).toBe(200);
  });
});

describe("a full event", () => {
  const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000" } });

  it("answers 409 before the photo is looked at, but lets the holder of the last seat retry", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 3 });
    const [paid] = insertPaidBookings(db, event.id, 2);
    const holder = newMobile();
    expect((await save(verifiedPhoneBrowser(server, holder), holder, event.id)).status).toBe(200);
    await server.photosStored();
    const files = jpgs(env.UPLOADS_DIR);

    // Bytes that are no image, a file over the size limit, no file at all: the seats answer first.
    const late = newMobile();
    const browser = verifiedPhoneBrowser(server, late);
    const junk = new Uint8Array(randomBytes(20_000));
    const oversized = new Uint8Array(5_242_881);
    for (const image of [junk, oversized, new Uint8Array(0)]) {
      const refused = await save(browser, late, event.id, image);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ success: false, error: "no seats left", code: "sold_out" });
    }
    // A phone that already paid hears so, also before its photo is read.
    const again = await save(verifiedPhoneBrowser(server, paid!.phone), paid!.phone, event.id, junk);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, alreadyBooked: true });
    expect(jpgs(env.UPLOADS_DIR)).toEqual(files);

    // The last seat is the holder's own: a retry replaces the hold and still succeeds.
    expect((await save(verifiedPhoneBrowser(server, holder), holder, event.id)).status).toBe(200);
    const held = db
      .select()
      .from(bookings)
      .where(and(eq(bookings.eventId, event.id), eq(bookings.status, "held")))
      .all();
    expect(held.map((b) => b.phone)).toEqual([holder]);
  });
});

describe("the upload sweep", () => {
  const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000" } });

  it("deletes orphans and the photos of holds that ran out, never a paid attendee's or the event's", async () => {
    const { db, env } = server.deps;
    const dir = env.UPLOADS_DIR;
    const event = await insertEvent(db, dir, { totalSeats: 10 });
    const photoOf = (userId: number) => db.select().from(users).where(eq(users.id, userId)).get();
    const served = async (name: string) => (await fetch(`${server.url}/api/images/${name}`)).status;

    // Paid through the real calls.
    const payer = newMobile();
    const payerBrowser = verifiedPhoneBrowser(server, payer);
    const paidUser = (await save(payerBrowser, payer, event.id)).body.userID ?? 0;
    const paidCheckout = await createCheckout(server.url, { userID: paidUser, eventID: event.id }, payerBrowser);
    expect(await pay(server.url, paidCheckout.sessionId ?? "")).toBe(303);
    const paidPhoto = photoOf(paidUser);
    // A hold left to run out, and one that reached the payment page and then ran out.
    const walker = newMobile();
    const walkerUser = (await save(verifiedPhoneBrowser(server, walker), walker, event.id)).body.userID ?? 0;
    await server.photosStored();
    const walkerPhoto = photoOf(walkerUser);
    const hesitant = newMobile();
    const hesitantBrowser = verifiedPhoneBrowser(server, hesitant);
    const hesitantUser = (await save(hesitantBrowser, hesitant, event.id)).body.userID ?? 0;
    expect(
      (await createCheckout(server.url, { userID: hesitantUser, eventID: event.id }, hesitantBrowser)).status,
    ).toBe(200);
    // The photos are stored moments after each reply.
    await server.photosStored();
    const hesitantPhoto = photoOf(hesitantUser);
    // Files no row names: one left by a crash hours ago (and a half-written one), one being saved now.
    const old = await storeImage(dir, await makeImage());
    const partial = `${randomBytes(16).toString("hex")}.jpg.4242.tmp`;
    writeFileSync(join(dir, partial), "half a photo");
    // The sweep ages a file by its mtime against the server's clock; the test sets both, so the file
    // system's own clock (which a faked clock does not move) plays no part.
    const hoursAgo = new Date(server.deps.now() - 2 * HOUR);
    for (const name of [old.imageName, old.thumbName, partial]) utimesSync(join(dir, name), hoursAgo, hoursAgo);
    const young = await storeImage(dir, await makeImage());
    const justNow = new Date(server.deps.now());
    for (const name of [young.imageName, young.thumbName]) utimesSync(join(dir, name), justNow, justNow);

    const first = await sweepUploads({ db, uploadsDir: dir }, server.deps.now());
    expect(first.filesRemoved.sort()).toEqual([old.imageName, old.thumbName, partial].sort());
    for (const name of [young.imageName, walkerPhoto?.imageName, hesitantPhoto?.thumbName, event.imageName]) {
      expect(existsSync(join(dir, name ?? ""))).toBe(true);
    }

    // The scheduler runs the sweep: an hour after the walker's hold ran out, its photo goes.
    const scheduler = createScheduler({ log: server.deps.log, now: server.deps.now }, backgroundJobs(server.deps));
    server.advance(30 * MINUTE + HOUR + MINUTE);
    await scheduler.tick();
    expect(photoOf(walkerUser)).toMatchObject({ imageName: NO_PHOTO, thumbName: NO_PHOTO, name: "Asha Patel" });
    expect(existsSync(join(dir, walkerPhoto?.imageName ?? ""))).toBe(false);
    expect(existsSync(join(dir, walkerPhoto?.thumbName ?? ""))).toBe(false);
    expect(await served(walkerPhoto?.imageName ?? "")).toBe(404);
    expect(await served(NO_PHOTO)).toBe(404);
    expect(existsSync(join(dir, young.imageName))).toBe(false);
    // A checkout can still be paid late (Stripe retries its webhook for days): that photo stays.
    expect(photoOf(hesitantUser)).toEqual(hesitantPhoto);
    expect(await served(hesitantPhoto?.thumbName ?? "")).toBe(200);

    server.advance(3 * DAY + HOUR);
    await scheduler.tick();
    expect(photoOf(hesitantUser)?.imageName).toBe(NO_PHOTO);
    expect(existsSync(join(dir, hesitantPhoto?.imageName ?? ""))).toBe(false);
    // The paid attendee and the event keep their pictures.
    expect(photoOf(paidUser)).toEqual(paidPhoto);
    for (const name of [paidPhoto?.imageName, paidPhoto?.thumbName, event.imageName]) {
      expect(await served(name ?? "")).toBe(200);
    }
    // Nothing is left to do: a second server or a retried run changes nothing.
    const again = await sweepUploads({ db, uploadsDir: dir }, server.deps.now());
    expect(again).toEqual({ photosReleased: 0, filesRemoved: [] });
    await scheduler.stop();
  });
});

describe("uploads at rest", () => {
  const server = suiteTestServer({ expectNoErrors: false });

  it("stores photos readable by the server's account only, in a folder only it can open", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const phone = newMobile();
    const saved = await save(verifiedPhoneBrowser(server, phone), phone, event.id);
    expect(saved.status).toBe(200);
    await server.photosStored();
    const user = db
      .select()
      .from(users)
      .where(eq(users.id, saved.body.userID ?? 0))
      .get();
    expect(mode(env.UPLOADS_DIR)).toBe(0o700);
    for (const name of [user?.imageName, user?.thumbName, event.imageName]) {
      expect(mode(join(env.UPLOADS_DIR, name ?? ""))).toBe(0o600);
    }
  });

  it("narrows a folder and files an older version left readable by others", async () => {
    const { db, env } = server.deps;
    const dir = join(env.UPLOADS_DIR, "..", "old-uploads");
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const name = `${randomBytes(16).toString("hex")}.jpg`;
    writeFileSync(join(dir, name), await makeImage(), { mode: 0o644 });
    chmodSync(join(dir, name), 0o644);
    await insertEvent(db, dir, { imageName: name });

    await sweepUploads({ db, uploadsDir: dir }, server.deps.now());
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, name))).toBe(0o600);
  });
});
