import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { guestSessions, keptDetails } from "../../db/access-schema.ts";
import { bookings, events, feedback, outboxMessages, refunds, users } from "../../db/schema.ts";
import {
  type BrowserClient,
  browserClient,
  suiteTestServer,
  type TestServer,
  verifiedPhoneBrowser,
} from "../../test/api-harness.ts";
import { insertEvent, makeImage } from "../../test/fixtures.ts";
import { detailsForm, newMobile, signedInOnMe } from "../../test/suites/booking-flow.ts";
import { applyRetention } from "../ops/retention.ts";
import { sweepUploads } from "../ops/upload-sweep.ts";
import { KEPT_DETAILS_IDLE_MS } from "./kept-details.ts";
import type { MyData } from "./my-data.ts";

// Details kept if I choose, and what is kept about me (issue 34 items 2 and 5,
// docs/decisions/029-kept-details.md).

const DAY = 24 * 60 * 60 * 1000;
const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;
let jpeg: Uint8Array;
beforeAll(async () => {
  jpeg = new Uint8Array(await makeImage("jpeg", 640, 480));
});

function form(input: {
  phone: string;
  eventId: number;
  name?: string;
  keep?: boolean;
  saved?: boolean;
  photo?: boolean;
}) {
  const body = detailsForm({ phone: input.phone, eventId: input.eventId, image: jpeg, name: input.name });
  if (input.photo === false) body.delete("image");
  if (input.keep !== undefined) body.append("keepDetails", String(input.keep));
  if (input.saved) body.append("useSavedPhoto", "true");
  return body;
}

/** A save, and the photo and kept details its reply is followed by (a first save stores them after it). */
async function save(server: TestServer, browser: BrowserClient, input: Parameters<typeof form>[0]) {
  const response = await browser.postForm("/api/save-user-details", form(input));
  const reply = { status: response.status, body: await json<{ userID?: number; code?: string }>(response) };
  await server.photosStored();
  return reply;
}

async function kept(browser: BrowserClient, phone: string) {
  const response = await browser.get(`/api/kept-details?phone=${encodeURIComponent(phone)}`);
  return {
    status: response.status,
    body: await json<{ kept: Record<string, unknown> | null; code?: string }>(response),
  };
}

const signIn = (server: TestServer, phone: string, browser?: BrowserClient) => signedInOnMe(server.url, phone, browser);

const keptRow = (server: TestServer, phone: string) =>
  server.deps.db.select().from(keptDetails).where(eq(keptDetails.phone, phone)).get();
const onDisk = (server: TestServer, name: string) => existsSync(join(server.deps.env.UPLOADS_DIR, name));

function pay(server: TestServer, userId: number) {
  server.deps.db
    .update(bookings)
    .set({ status: "paid", paidAt: server.deps.now(), paymentIntentId: `pi_kept_${userId}`, uniqueCode: `K${userId}` })
    .where(eq(bookings.userId, userId))
    .run();
}

describe("Keep my details for next time", () => {
  const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" } });

  it("unticked (or absent) keeps nothing: the prefill answers null, as before", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    expect((await save(server, browser, { phone, eventId: event.id, keep: false })).status).toBe(200);
    expect(keptRow(server, phone)).toBeUndefined();
    expect(await kept(browser, phone)).toEqual({ status: 200, body: { kept: null } });
    const other = newMobile();
    expect((await save(server, verifiedPhoneBrowser(server, other), { phone: other, eventId: event.id })).status).toBe(
      200,
    );
    expect(keptRow(server, other)).toBeUndefined();
  });

  it("ticked keeps the details and a photo copy of their own; only the same verified number is prefilled", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    const saved = await save(server, browser, { phone, eventId: event.id, name: "Mei Tanaka", keep: true });
    expect(saved.status).toBe(200);
    const row = keptRow(server, phone);
    const user = db.select().from(users).where(eq(users.id, saved.body.userID!)).get()!;
    expect(row).toMatchObject({ name: "Mei Tanaka", email: "asha@example.com", gender: "female" });
    expect(row!.imageName).not.toBe(user.imageName);
    expect(onDisk(server, row!.imageName) && onDisk(server, row!.thumbName)).toBe(true);

    const mine = await kept(browser, phone);
    expect(mine.status).toBe(200);
    expect(mine.body.kept).toEqual({
      name: "Mei Tanaka",
      email: "asha@example.com",
      dateOfBirth: row!.dateOfBirth,
      gender: "female",
      hasPhoto: true,
    });
    expect(JSON.stringify(mine.body)).not.toContain(row!.imageName.slice(0, 32));

    // Another number's browser asking for this number: 403, nothing read.
    const otherPhone = newMobile();
    const other = verifiedPhoneBrowser(server, otherPhone);
    const refused = await kept(other, phone);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("phone_not_verified");
    expect(JSON.stringify(refused.body)).not.toContain("Mei");
    // Its own number has nothing kept.
    expect((await kept(other, otherPhone)).body).toEqual({ kept: null });
    // A browser that verified nothing, and the /me session of another number, get nothing either.
    expect((await kept(browserClient(server.url), phone)).status).toBe(403);
    expect((await kept(await signIn(server, otherPhone), phone)).status).toBe(403);
    // The /me session of this number is enough on its own.
    expect((await kept(await signIn(server, phone), phone)).body.kept).toMatchObject({ name: "Mei Tanaka" });
  });

  it("shows the kept photo only to its own number: the verified browser or its /me session", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    expect((await save(server, browser, { phone, eventId: event.id, name: "Mei Tanaka", keep: true })).status).toBe(
      200,
    );
    const photo = (client: BrowserClient, of: string) =>
      client.get(`/api/kept-photo?${new URLSearchParams({ phone: of })}`);

    const mine = await photo(browser, phone);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-type")).toBe("image/jpeg");
    expect(mine.headers.get("cache-control")).toBe("no-store");
    const bytes = new Uint8Array(await mine.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    // The stored thumbnail, byte for byte: the kept copy, not the night's.
    const row = keptRow(server, phone)!;
    expect(Buffer.from(bytes).equals(await readFile(join(env.UPLOADS_DIR, row.thumbName)))).toBe(true);
    expect((await photo(await signIn(server, phone), phone)).status).toBe(200);

    // Anyone else: 403 whether or not a photo is kept, and no bytes.
    const otherPhone = newMobile();
    for (const client of [
      verifiedPhoneBrowser(server, otherPhone),
      browserClient(server.url),
      await signIn(server, otherPhone),
    ]) {
      const refused = await photo(client, phone);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: "phone_not_verified" });
    }
    // Its own number keeps none: 404. A number that is not a mobile: 400.
    const none = await photo(verifiedPhoneBrowser(server, otherPhone), otherPhone);
    expect(none.status).toBe(404);
    expect((await photo(browser, "not a phone")).status).toBe(400);
  });

  it("books again with the saved photo (a copy, no upload); another number cannot use it", async () => {
    const { db, env } = server.deps;
    const first = await insertEvent(db, env.UPLOADS_DIR);
    const second = await insertEvent(db, env.UPLOADS_DIR);
    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    expect((await save(server, browser, { phone, eventId: first.id, keep: true })).status).toBe(200);
    const row = keptRow(server, phone)!;

    const again = await save(server, browser, { phone, eventId: second.id, saved: true, photo: false });
    expect(again.status).toBe(200);
    const user = db.select().from(users).where(eq(users.id, again.body.userID!)).get()!;
    expect(user.imageName).not.toBe(row.imageName);
    expect(onDisk(server, user.imageName)).toBe(true);
    expect(keptRow(server, phone)?.imageName).toBe(row.imageName);

    // No photo and no saved one: the usual 400, nothing held.
    const otherPhone = newMobile();
    const other = verifiedPhoneBrowser(server, otherPhone);
    const refused = await save(server, other, { phone: otherPhone, eventId: second.id, saved: true, photo: false });
    expect(refused.status).toBe(400);
    expect(db.select().from(bookings).where(eq(bookings.phone, otherPhone)).all()).toEqual([]);
    // Naming this number from the other browser: 403 before anything is read.
    expect((await save(server, other, { phone, eventId: second.id, saved: true, photo: false })).status).toBe(403);
    // Bad values for the new fields: a clear 400.
    const bad = form({ phone, eventId: second.id });
    bad.append("keepDetails", "yes");
    const badReply = await browser.postForm("/api/save-user-details", bad);
    expect(badReply.status).toBe(400);
  });

  it("the upload sweep leaves a kept photo alone after the hold that made it is let go", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const phone = newMobile();
    expect(
      (await save(server, verifiedPhoneBrowser(server, phone), { phone, eventId: event.id, keep: true })).status,
    ).toBe(200);
    const row = keptRow(server, phone)!;
    const later = Date.now() + 5 * DAY;
    await sweepUploads({ db, uploadsDir: env.UPLOADS_DIR }, later);
    expect(onDisk(server, row.imageName) && onDisk(server, row.thumbName)).toBe(true);
  });

  it("retention erases kept details 18 months after the last booking, never before, and a new booking restarts the count", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    expect((await save(server, browser, { phone, eventId: event.id, keep: true })).status).toBe(200);
    const row = keptRow(server, phone)!;
    const deps = { db, uploadsDir: env.UPLOADS_DIR, retentionDays: env.RETENTION_DAYS };

    // Well past RETENTION_DAYS: the night is erased, the kept details are not.
    server.advance((env.RETENTION_DAYS + 10) * DAY);
    await applyRetention(deps, server.deps.now());
    expect(db.select().from(events).where(eq(events.id, event.id)).get()?.personalDataErasedAt).not.toBeNull();
    expect(keptRow(server, phone)).toMatchObject({ name: "Asha Patel" });
    expect(onDisk(server, row.imageName)).toBe(true);

    // Just short of 18 months since the booking: still kept.
    server.advance(KEPT_DETAILS_IDLE_MS - (env.RETENTION_DAYS + 10) * DAY - DAY);
    await applyRetention(deps, server.deps.now());
    expect(keptRow(server, phone)).toBeDefined();

    // A booking now (unticked) restarts the 18 months.
    const later = await insertEvent(db, env.UPLOADS_DIR, { startsAt: server.deps.now() + 7 * DAY });
    const again = verifiedPhoneBrowser(server, phone);
    expect((await save(server, again, { phone, eventId: later.id, saved: true, photo: false })).status).toBe(200);
    server.advance(2 * DAY);
    await applyRetention(deps, server.deps.now());
    expect(keptRow(server, phone)).toBeDefined();

    // 18 months with no booking: gone, and its photo copy with it.
    server.advance(KEPT_DETAILS_IDLE_MS);
    await applyRetention(deps, server.deps.now());
    expect(keptRow(server, phone)).toBeUndefined();
    expect(onDisk(server, row.imageName)).toBe(false);
  });
});

describe("Download my data and Delete my details", () => {
  const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" } });

  /** Two guests who met and matched, a third who liked the first, with texts to each. */
  async function night() {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const [me, match, admirer] = [newMobile(), newMobile(), newMobile()];
    const meSaved = await save(server, verifiedPhoneBrowser(server, me), {
      phone: me,
      eventId: event.id,
      name: "Asha Me",
      keep: true,
    });
    const matchForm = form({ phone: match, eventId: event.id, name: "Ben Match" });
    matchForm.set("gender", "male");
    matchForm.set("email", "ben@example.com");
    const matchSaved = await json<{ userID: number }>(
      await verifiedPhoneBrowser(server, match).postForm("/api/save-user-details", matchForm),
    );
    const admirerForm = form({ phone: admirer, eventId: event.id, name: "Cal Admirer" });
    admirerForm.set("gender", "male");
    admirerForm.set("email", "cal@example.com");
    const admirerSaved = await json<{ userID: number }>(
      await verifiedPhoneBrowser(server, admirer).postForm("/api/save-user-details", admirerForm),
    );
    const [a, b, c] = [meSaved.body.userID!, matchSaved.userID, admirerSaved.userID];
    // Paid as the checkout lets them be: once their photos are stored.
    await server.photosStored();
    for (const id of [a, b, c]) pay(server, id);
    const now = server.deps.now();
    const rate = (from: number, to: number, value: "like" | "dislike") =>
      db
        .insert(feedback)
        .values({ fromUserId: from, toUserId: to, eventId: event.id, value, clientTs: now, updatedAt: now })
        .run();
    rate(a, b, "like");
    rate(b, a, "like");
    rate(c, a, "like");
    rate(a, c, "dislike");
    rate(c, b, "dislike");
    db.update(events).set({ status: "ended", resultsReleasedAt: now }).where(eq(events.id, event.id)).run();
    db.insert(outboxMessages)
      .values({ dedupeKey: `k-${a}`, to: me, body: "Your results for me are in", status: "sent", sentAt: now })
      .run();
    db.insert(outboxMessages)
      .values({ dedupeKey: `k-${b}`, to: match, body: "Secret text for Ben", status: "sent", sentAt: now })
      .run();
    return { event, me, match, admirer, ids: { a, b, c } };
  }

  it("answers 401 without a /me session", async () => {
    const anon = browserClient(server.url);
    expect((await anon.get("/api/me-data")).status).toBe(401);
    expect((await anon.postJson("/api/me-delete-details", {})).status).toBe(401);
    // A browser that only verified the number for booking is not signed in on /me.
    const phone = newMobile();
    expect((await verifiedPhoneBrowser(server, phone).get("/api/me-data")).status).toBe(401);
  });

  it("downloads everything held about the number and nothing of anyone else beyond a match's name and number", async () => {
    const { me, match, admirer } = await night();
    const browser = await signIn(server, me);
    const response = await browser.get("/api/me-data");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain("attachment");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const data = await json<MyData>(response);
    expect(data.phone).toBe(me);
    expect(data.keptDetails).toMatchObject({ name: "Asha Me" });
    expect(data.bookings).toHaveLength(1);
    expect(data.bookings[0]).toMatchObject({ status: "paid", details: { name: "Asha Me", email: "asha@example.com" } });
    expect(data.ratingsGiven).toEqual([
      expect.objectContaining({ about: "Ben Match", choice: "like" }),
      expect.objectContaining({ about: "Cal Admirer", choice: "dislike" }),
    ]);
    expect(data.matches).toEqual([{ eventName: expect.any(String), name: "Ben Match", phone: match }]);
    expect(data.textsSent.map((t) => t.body)).toContain("Your results for me are in");

    const text = JSON.stringify(data);
    // Not the admirer's number (no match), nor anyone's email, photo names, or others' choices or texts.
    expect(text).not.toContain(admirer);
    expect(text).not.toContain("ben@example.com");
    expect(text).not.toContain("cal@example.com");
    expect(text).not.toMatch(/[a-f0-9]{32}/);
    expect(text).not.toContain("Secret text for Ben");
    expect(text.match(/"choice"/g)).toHaveLength(2);
    expect(server.deps.db.select().from(feedback).all().length).toBeGreaterThan(2);
  });

  it("deletes the number's details now, keeps the money, touches nobody else, and ends its sessions", async () => {
    const { db } = server.deps;
    const { me, match, ids } = await night();
    db.insert(refunds)
      .values({
        bookingId: db.select().from(bookings).where(eq(bookings.userId, ids.a)).get()!.id,
        paymentIntentId: `pi_kept_${ids.a}`,
        refundId: "re_1",
        amountCents: 100,
        reason: "admin",
      })
      .run();
    const mine = db.select().from(users).where(eq(users.id, ids.a)).get()!;
    const kept = keptRow(server, me)!;
    const theirsBefore = db.select().from(users).where(eq(users.id, ids.b)).get()!;
    const browser = await signIn(server, me);
    const phone2 = await signIn(server, me); // a second browser signed in as the same number

    const response = await browser.postJson("/api/me-delete-details", {});
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, erasedBookings: 1 });

    const after = db.select().from(users).where(eq(users.id, ids.a)).get()!;
    expect(after).toMatchObject({
      name: "Erased attendee",
      email: "erased@invalid",
      dateOfBirth: null,
      imageName: "none.jpg",
    });
    expect(onDisk(server, mine.imageName)).toBe(false);
    expect(onDisk(server, kept.imageName)).toBe(false);
    expect(keptRow(server, me)).toBeUndefined();
    // The money stays, under the booking.
    const booking = db.select().from(bookings).where(eq(bookings.userId, ids.a)).get()!;
    expect(booking).toMatchObject({
      status: "paid",
      amountCents: booking.amountCents,
      paymentIntentId: `pi_kept_${ids.a}`,
    });
    expect(db.select().from(refunds).where(eq(refunds.bookingId, booking.id)).all()).toHaveLength(1);
    expect(db.select().from(feedback).where(eq(feedback.fromUserId, ids.a)).all()).toHaveLength(2);
    // Nobody else touched.
    expect(db.select().from(users).where(eq(users.id, ids.b)).get()).toEqual(theirsBefore);
    expect(onDisk(server, theirsBefore.imageName)).toBe(true);
    expect(db.select().from(users).where(eq(users.phone, match)).all()).toHaveLength(1);
    // Every session of the number is over, in both browsers.
    expect((await browser.get("/api/me")).status).toBe(401);
    expect((await phone2.get("/api/me")).status).toBe(401);
    expect(
      db
        .select()
        .from(guestSessions)
        .where(eq(guestSessions.phone, me))
        .all()
        .every((s) => s.revokedAt !== null),
    ).toBe(true);
    // The match still sees their own details.
    expect((await (await signIn(server, match)).get("/api/me-data")).status).toBe(200);
  });
});
