import { existsSync } from "node:fs";
import { join } from "node:path";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  bookings,
  type Event,
  events,
  outboxMessages,
  phoneVerifications,
  rateLimitHits,
  refunds,
  users,
  waitlistEntries,
  waitlistOffers,
} from "../../db/schema.ts";
import { walletPasses, walletRegistrations } from "../../db/wallet-schema.ts";
import { browserClient, suiteTestServer, withTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings, makeImage } from "../../test/fixtures.ts";
import { dbState } from "../../test/suites/db-state.ts";
import { NO_PHOTO, storeImage } from "../booking/images.ts";
import { backgroundJobs } from "./jobs.ts";
import { applyRetention, ERASED } from "./retention.ts";
import { createScheduler } from "./scheduler.ts";

// Personal data retention (docs/decisions/012-disk-and-personal-data.md): RETENTION_DAYS after an event's planned end its attendees' photos,
// names, emails and phones are gone, the money records stay, and sent SMS keep only a few words.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PASSWORD = "correct horse battery staple";

const endOf = (event: Event) => event.startsAt + event.durationHours * HOUR;

const server = suiteTestServer();

/** Gives each booking's attendee a real stored photo, as save-user-details would have. */
async function withPhotos(userIds: number[]) {
  const { db, env } = server.deps;
  for (const id of userIds) {
    const stored = await storeImage(env.UPLOADS_DIR, await makeImage("jpeg", 200, 200));
    db.update(users).set(stored).where(eq(users.id, id)).run();
  }
  return db.select().from(users).where(inArray(users.id, userIds)).all();
}

async function adminParticipants(eventId: number) {
  const admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
  return (await (await admin.get(`/api/get-event-user/${eventId}`)).json()) as Record<string, unknown>[];
}

describe("an event's attendees, RETENTION_DAYS after its end", () => {
  it("loses photos, names, emails and phones, and keeps amounts, payment ids and refunds", async () => {
    const { db, env } = server.deps;
    const deps = { db, uploadsDir: env.UPLOADS_DIR, retentionDays: env.RETENTION_DAYS };
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 10 });
    const later = await insertEvent(db, env.UPLOADS_DIR, { startsAt: event.startsAt + 30 * DAY });
    const paid = insertPaidBookings(db, event.id, 3);
    const refunded = paid[2]!;
    db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, refunded.bookingId)).run();
    db.insert(refunds)
      .values({
        bookingId: refunded.bookingId,
        paymentIntentId: `pi_ret_${refunded.bookingId}`,
        refundId: `re_ret_${refunded.bookingId}`,
        amountCents: 4500,
        reason: "admin",
      })
      .run();
    const released = insertHeldBooking(db, event.id);
    db.update(bookings).set({ status: "released" }).where(eq(bookings.id, released.bookingId)).run();
    const entry = db
      .insert(waitlistEntries)
      .values({ eventId: event.id, phone: "+61412000111", gender: "female", name: "Wai Ting" })
      .returning()
      .get();
    db.insert(waitlistOffers)
      .values({ entryId: entry.id, eventId: event.id, phone: "+61412000111", gender: "female", expiresAt: 1 })
      .run();
    const attendees = await withPhotos([...paid.map((p) => p.userId), released.userId]);
    const [stayer] = await withPhotos(insertPaidBookings(db, later.id, 1).map((p) => p.userId));
    const before = await adminParticipants(event.id);
    const moneyBefore = db.select().from(bookings).where(eq(bookings.eventId, event.id)).all();
    const refundsBefore = db.select().from(refunds).all();

    const almost = endOf(event) + 90 * DAY - MINUTE;
    expect((await applyRetention(deps, almost)).erasedEvents).toEqual([]);
    expect(db.select().from(users).where(eq(users.id, released.userId)).get()?.name).toBe(released.name);

    const due = endOf(event) + 90 * DAY + MINUTE;
    expect((await applyRetention(deps, due)).erasedEvents).toEqual([event.id]);

    for (const user of db
      .select()
      .from(users)
      .where(
        inArray(
          users.id,
          attendees.map((a) => a.id),
        ),
      )
      .all()) {
      expect(user).toMatchObject({ ...ERASED, imageName: NO_PHOTO, thumbName: NO_PHOTO });
    }
    for (const a of attendees) {
      expect(existsSync(join(env.UPLOADS_DIR, a.imageName))).toBe(false);
      expect(existsSync(join(env.UPLOADS_DIR, a.thumbName))).toBe(false);
      expect((await fetch(`${server.url}/api/images/${a.thumbName}`)).status).toBe(404);
    }
    expect(db.select().from(bookings).where(eq(bookings.eventId, event.id)).all()).toEqual(
      moneyBefore.map((b) => ({ ...b, phone: ERASED.phone })),
    );
    expect(db.select().from(refunds).all()).toEqual(refundsBefore);
    expect(db.select().from(waitlistEntries).where(eq(waitlistEntries.id, entry.id)).get()).toMatchObject({
      phone: ERASED.phone,
      name: ERASED.name,
      status: "ended",
    });
    expect(db.select().from(waitlistOffers).where(eq(waitlistOffers.entryId, entry.id)).get()?.phone).toBe(
      ERASED.phone,
    );
    expect(db.select().from(events).where(eq(events.id, event.id)).get()?.personalDataErasedAt).toBe(due);

    // The organiser's books still add up: same bookings, amounts and payment ids, no names.
    const after = await adminParticipants(event.id);
    expect(after).toEqual(
      before.map((row) => ({
        ...row,
        username: ERASED.name,
        email: ERASED.email,
        phone: ERASED.phone,
        image_name: NO_PHOTO,
        // The date of birth went with the rest, so no age can be worked out any more.
        age: null,
      })),
    );
    expect(after.map((r) => r.booking_amount)).toEqual([45, 45, 45]);

    // An event still inside its retention period keeps everything; a second run changes nothing.
    expect(db.select().from(users).where(eq(users.id, stayer!.id)).get()).toEqual(stayer);
    expect((await fetch(`${server.url}/api/images/${stayer!.imageName}`)).status).toBe(200);
    const state = dbState(db.$client);
    expect((await applyRetention(deps, due + HOUR)).erasedEvents).toEqual([]);
    expect(dbState(db.$client)).toEqual(state);
  });

  it("erases a cancelled event by its planned end, on the scheduler, after RETENTION_DAYS of its own", async () => {
    await withTestServer({ env: { RETENTION_DAYS: "30" } }, async (short) => {
      const { db, env } = short.deps;
      const event = await insertEvent(db, env.UPLOADS_DIR, { status: "cancelled" });
      const [booking] = insertPaidBookings(db, event.id, 1);
      const scheduler = createScheduler({ log: short.deps.log, now: short.deps.now }, backgroundJobs(short.deps));

      short.advance(endOf(event) + 30 * DAY - MINUTE - short.deps.now());
      await scheduler.tick();
      expect(db.select().from(users).where(eq(users.id, booking!.userId)).get()?.phone).toBe(booking!.phone);

      short.advance(2 * HOUR);
      await scheduler.tick();
      expect(db.select().from(users).where(eq(users.id, booking!.userId)).get()).toMatchObject(ERASED);
      expect(db.select().from(bookings).where(eq(bookings.id, booking!.bookingId)).get()?.phone).toBe(ERASED.phone);
      await scheduler.stop();
    });
  });
});

describe("a night's wallet passes", () => {
  it("lose the phones that keep them (push tokens) and their rows with the night's personal data", async () => {
    const { db, env } = server.deps;
    const night = await insertEvent(db, env.UPLOADS_DIR, { startsAt: server.deps.now() - 200 * DAY });
    const other = await insertEvent(db, env.UPLOADS_DIR);
    const passOf = (eventId: number, serialNumber: string) => {
      const [paid] = insertPaidBookings(db, eventId, 1);
      db.insert(walletPasses).values({ bookingId: paid!.bookingId, serialNumber, updatedAt: 1 }).run();
      db.insert(walletRegistrations)
        .values({ deviceLibraryId: `device-${serialNumber}`, serialNumber, pushToken: `token-${serialNumber}` })
        .run();
      return paid!.bookingId;
    };
    const erasedPass = passOf(night.id, "serial-of-the-old-night");
    const keptPass = passOf(other.id, "serial-of-a-night-to-come");
    await applyRetention({ db, uploadsDir: env.UPLOADS_DIR, retentionDays: 90 }, server.deps.now());
    expect(db.select().from(walletPasses).where(eq(walletPasses.bookingId, erasedPass)).all()).toEqual([]);
    expect(
      db
        .select()
        .from(walletRegistrations)
        .where(eq(walletRegistrations.serialNumber, "serial-of-the-old-night"))
        .all(),
    ).toEqual([]);
    expect(db.select().from(walletPasses).where(eq(walletPasses.bookingId, keptPass)).all()).toHaveLength(1);
    expect(
      db
        .select()
        .from(walletRegistrations)
        .where(eq(walletRegistrations.serialNumber, "serial-of-a-night-to-come"))
        .all(),
    ).toHaveLength(1);
  });
});

describe("text messages and who asked for codes", () => {
  it("keeps only the first words of a sent SMS after 7 days, and after RETENTION_DAYS only that it went", async () => {
    const { db, env } = server.deps;
    const deps = { db, uploadsDir: env.UPLOADS_DIR, retentionDays: env.RETENTION_DAYS };
    const sentAt = server.deps.now();
    const body = "Your ticket code is K7QX2M. Show it at the door: https://example.com/tickets?add=1&t=secret";
    const [sent, failed, pending] = ["sent", "failed", "pending"].map((status, i) =>
      db
        .insert(outboxMessages)
        .values({
          dedupeKey: `retention-test:${sentAt}:${i}`,
          to: "+61412000222",
          body,
          status: status as "sent" | "failed" | "pending",
          sentAt: status === "sent" ? sentAt : null,
          createdAt: sentAt,
        })
        .returning()
        .get(),
    );
    const read = (id: number) => db.select().from(outboxMessages).where(eq(outboxMessages.id, id)).get();

    await applyRetention(deps, sentAt + 7 * DAY - MINUTE);
    expect([read(sent!.id)?.body, read(failed!.id)?.body]).toEqual([body, body]);

    await applyRetention(deps, sentAt + 7 * DAY + MINUTE);
    expect(read(sent!.id)).toMatchObject({ body: "Your ticket code…", to: "+61412000222" });
    expect(read(failed!.id)?.body).toBe("Your ticket code…");
    // A message still to be sent needs its words.
    expect(read(pending!.id)).toEqual(pending);
    const { shortenedMessages } = await applyRetention(deps, sentAt + 8 * DAY);
    expect(shortenedMessages).toBe(0);
    expect(read(sent!.id)?.body).toBe("Your ticket code…");

    await applyRetention(deps, sentAt + 90 * DAY + MINUTE);
    // First words can be "Hi Alice," (issue 46 item 2): after RETENTION_DAYS the body goes too.
    expect(read(sent!.id)).toMatchObject({ body: "", to: ERASED.phone, status: "sent", sentAt });
    expect(read(failed!.id)?.to).toBe(ERASED.phone);
    expect(read(pending!.id)).toEqual(pending);
  });

  it("drops a sent email's HTML and attachments with its text after 7 days, and its address after RETENTION_DAYS", async () => {
    const { db, env } = server.deps;
    const deps = { db, uploadsDir: env.UPLOADS_DIR, retentionDays: env.RETENTION_DAYS };
    const sentAt = server.deps.now();
    const text = "Hi Ana, your ticket code is K7QX2M. Show it at the door: https://example.com/tickets?add=1&t=secret";
    const [sent, pending] = ["sent", "pending"].map((status, i) =>
      db
        .insert(outboxMessages)
        .values({
          dedupeKey: `retention-email:${sentAt}:${i}`,
          channel: "email",
          to: "ana@example.com",
          subject: "Your ticket for Friday Mixer",
          body: text,
          html: '<p>Hi Ana</p><img src="cid:qr">',
          attachments: [{ filename: "ticket.png", contentType: "image/png", cid: "qr", base64: "iVBORw0K" }],
          status: status as "sent" | "pending",
          sentAt: status === "sent" ? sentAt : null,
          createdAt: sentAt,
        })
        .returning()
        .get(),
    );
    const read = (id: number) => db.select().from(outboxMessages).where(eq(outboxMessages.id, id)).get();

    await applyRetention(deps, sentAt + 7 * DAY - MINUTE);
    expect(read(sent!.id)).toEqual(sent);
    await applyRetention(deps, sentAt + 7 * DAY + MINUTE);
    expect(read(sent!.id)).toMatchObject({
      subject: "Your ticket for Friday Mixer",
      body: "Hi Ana, your…",
      html: null,
      attachments: null,
      to: "ana@example.com",
    });
    expect(read(pending!.id)).toEqual(pending);
    expect((await applyRetention(deps, sentAt + 8 * DAY)).shortenedMessages).toBe(0);

    await applyRetention(deps, sentAt + 90 * DAY + MINUTE);
    expect(read(sent!.id)?.to).toBe(ERASED.email);
    expect(read(pending!.id)).toEqual(pending);
  });

  it("forgets rate-limit hits after a week and spent codes after a day", async () => {
    const { db, env } = server.deps;
    const deps = { db, uploadsDir: env.UPLOADS_DIR, retentionDays: env.RETENTION_DAYS };
    const now = server.deps.now() + 400 * DAY;
    const key = "+61412000333";
    db.insert(rateLimitHits)
      .values([
        { bucket: "otp-phone-day", key, at: now - 8 * DAY },
        { bucket: "otp-phone-day", key, at: now - HOUR },
      ])
      .run();
    db.insert(phoneVerifications)
      .values([
        { phone: key, codeHash: "old", expiresAt: now - 2 * DAY },
        { phone: key, codeHash: "live", expiresAt: now + 5 * MINUTE },
      ])
      .run();

    await applyRetention(deps, now);
    expect(db.select().from(rateLimitHits).where(eq(rateLimitHits.key, key)).all()).toEqual([
      expect.objectContaining({ at: now - HOUR }),
    ]);
    expect(db.select().from(phoneVerifications).where(eq(phoneVerifications.phone, key)).all()).toEqual([
      expect.objectContaining({ codeHash: "live" }),
    ]);
  });
});
