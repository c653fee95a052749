import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ageAllowed } from "../../common/age.ts";
import type { Db } from "../../db/client.ts";
import { announcements } from "../../db/marketing-schema.ts";
import { bookings, type Event, outboxMessages, users, waitlistEntries } from "../../db/schema.ts";
import { type BrowserClient, browserClient, type TestServer, withTestServer } from "../../test/api-harness.ts";
import { ADULT_DATE_OF_BIRTH } from "../../test/date-of-birth.ts";
import { insertAttendee, insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { random } from "../../test/seeded-random.ts";
import { hostAccessHelpers, json, MINUTE, PASSWORD } from "../../test/suites/host-access.ts";
import { recordConsent } from "../messaging/consent.ts";
import { backgroundJobs } from "../ops/jobs.ts";
import { createScheduler } from "../ops/scheduler.ts";
import type { SmsProvider } from "../providers/sms/types.ts";

// Announcements (issue 36, docs/decisions/034-invitations.md), over real HTTP: who is asked, what
// they get, the throttle and suppression at send time (the scheduler's outbox job with a moved
// clock), the counts the organiser reads back, and that only the organiser may send.

const DAY = 86_400_000;
const OLD_DATE_OF_BIRTH = "1960-01-01";

type Sent = { to: string; body: string };

/** A server whose texts are recorded, at INVITE_RATE_PER_MINUTE 5, with an organiser signed in. */
async function withInviteServer<T>(
  fn: (s: { server: TestServer; admin: BrowserClient; texts: Sent[] }) => Promise<T>,
  env: Record<string, string> = {},
) {
  const texts: Sent[] = [];
  return withTestServer(
    {
      env: { INVITE_RATE_PER_MINUTE: "5", ...env },
      deps: (base) => ({
        sms: {
          ...base.sms,
          send: async (to: string, body: string) => {
            texts.push({ to, body });
            return base.sms.send(to, body);
          },
        } satisfies SmsProvider,
      }),
    },
    async (server) => {
      const admin = browserClient(server.url);
      expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
      return fn({ server, admin, texts });
    },
  );
}

type PersonSpec = {
  gender?: "male" | "female";
  dateOfBirth?: string | null;
  sms?: boolean;
  email?: boolean;
};

/** Someone who filled in the details form, with a choice per channel where one is given. */
function person(server: TestServer, spec: PersonSpec = {}) {
  const { db } = server.deps;
  const user = insertAttendee(db, { gender: spec.gender ?? "female" });
  if (spec.dateOfBirth !== undefined) {
    db.update(users).set({ dateOfBirth: spec.dateOfBirth }).where(eq(users.id, user.id)).run();
  }
  const at = server.deps.now() - DAY;
  if (spec.sms !== undefined) {
    recordConsent(db, {
      channel: "sms",
      address: user.phone,
      given: spec.sms,
      source: "booking",
      phone: user.phone,
      at,
    });
  }
  if (spec.email !== undefined) {
    recordConsent(db, {
      channel: "email",
      address: user.email,
      given: spec.email,
      // An email's yes is its address's confirmation (docs/decisions/039).
      source: spec.email ? "confirmation" : "booking",
      phone: user.phone,
      at,
    });
  }
  return user;
}

const upcoming = (server: TestServer, overrides: Partial<Event> = {}) =>
  insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, {
    name: "Saturday Social",
    startsAt: server.deps.now() + 7 * DAY,
    ...overrides,
  });

/** A night that happened, with these people as its paid guests. */
async function pastNight(server: TestServer, guests: { id: number; phone: string }[]) {
  const event = await upcoming(server, { name: "Last Month", status: "ended", startsAt: server.deps.now() - 30 * DAY });
  for (const g of guests) {
    server.deps.db
      .insert(bookings)
      .values({
        userId: g.id,
        eventId: event.id,
        phone: g.phone,
        status: "paid",
        holdExpiresAt: 0,
        amountCents: 4500,
        paymentIntentId: `pi_past_${g.id}`,
        paidAt: server.deps.now() - 31 * DAY,
      })
      .run();
  }
  return event;
}

const post = async (client: BrowserClient, path: string, body: unknown) => {
  const r = await client.postJson(path, body);
  return { status: r.status, body: await json(r) };
};

const outboxOf = (db: Db, announcementId: number) =>
  db.select().from(outboxMessages).where(eq(outboxMessages.announcementId, announcementId)).all();

const scheduler = (server: TestServer) =>
  createScheduler({ log: server.deps.log, now: server.deps.now }, backgroundJobs(server.deps));

describe("announcements", () => {
  it("queues the filtered audience once per channel: the text ends Reply STOP to opt out, the email carries its sender, ABN, Unsubscribe and both headers", async () => {
    await withInviteServer(async ({ server, admin }) => {
      const { db } = server.deps;
      const event = await upcoming(server);
      const woman = person(server, { gender: "female", sms: true, email: true });
      const womanTextOnly = person(server, { gender: "female", sms: true, email: false });
      const womanNoConsent = person(server, { gender: "female" });
      const womanTooOld = person(server, { gender: "female", dateOfBirth: OLD_DATE_OF_BIRTH, sms: true, email: true });
      const man = person(server, { gender: "male", sms: true, email: true });
      // Already booked for this night: never invited to it.
      const booked = person(server, { gender: "female", sms: true, email: true });
      db.insert(bookings)
        .values({
          userId: booked.id,
          eventId: event.id,
          phone: booked.phone,
          status: "paid",
          holdExpiresAt: 0,
          amountCents: 4500,
          paymentIntentId: "pi_booked",
          paidAt: server.deps.now(),
        })
        .run();
      void womanNoConsent;

      const body = {
        eventID: event.id,
        audience: { gender: "female", ageFit: true },
        channels: ["sms", "email"],
        text: "3 seats left for women on Saturday: {link}",
      };
      const preview = await post(admin, "/api/announcements/preview", body);
      expect(preview.status).toBe(200);
      expect(preview.body.recipients).toEqual({ sms: 2, email: 1 });
      expect(preview.body.sms).toMatch(
        /^Saathi Speed Dating: 3 seats left for women on Saturday: http.*\nReply STOP to opt out$/,
      );
      // The preview's unsubscribe link is a sample, no one's.
      expect((preview.body.email as { html: string }).html).toContain("unsubscribe?c=SAMPLE&amp;t=SAMPLE");

      const sent = await post(admin, "/api/announcements", body);
      expect(sent).toEqual({ status: 201, body: { id: expect.any(Number), recipients: { sms: 2, email: 1 } } });
      const id = sent.body.id as number;

      const rows = outboxOf(db, id);
      expect(rows.map((r) => r.dedupeKey).sort()).toEqual(
        [
          `announce:${id}:sms:${woman.phone}`,
          `announce:${id}:sms:${womanTextOnly.phone}`,
          `announce:${id}:email:${woman.email}`,
        ].sort(),
      );
      expect(rows.every((r) => r.purpose === "marketing" && r.status === "pending")).toBe(true);
      const sms = rows.find((r) => r.channel === "sms")!;
      expect(sms.body.endsWith("\nReply STOP to opt out")).toBe(true);
      expect(sms.body).toContain(`/?event=${event.id}&a=${id}`);
      expect(sms.body).toBe(preview.body.sms);
      const email = rows.find((r) => r.channel === "email")!;
      expect(email.headers?.["List-Unsubscribe"]).toMatch(/^<http.*\/api\/unsubscribe\?c=\d+&t=[\w-]+>$/);
      expect(email.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      expect(email.html).toMatch(/<a href="[^"]*\/unsubscribe\?c=\d+&amp;t=[\w-]+"[^>]*>Unsubscribe<\/a>/);
      expect(email.html).toContain(`ABN ${server.deps.env.BUSINESS_ABN}`);
      expect(email.body).toContain(`ABN ${server.deps.env.BUSINESS_ABN}`);
      expect(email.subject).toMatch(/^Saturday Social, /);
      for (const excluded of [womanNoConsent, womanTooOld, man, booked]) {
        expect(rows.some((r) => r.to === excluded.phone || r.to === excluded.email)).toBe(false);
      }

      // Logged in the event's activity, by counts only.
      const activity = await json<{ action: string; detail: string }[]>(
        await admin.get(`/api/admin-event/${event.id}/activity`),
      );
      expect(activity.find((a) => a.action === "announcement sent")?.detail).toBe("To 2 by text, 1 by email");
    });
  });

  it("reaches each filter's people: past guests, women or men, those who waited on a waitlist", async () => {
    await withInviteServer(async ({ server, admin }) => {
      const event = await upcoming(server);
      const guest = person(server, { gender: "male", sms: true });
      const notGuest = person(server, { gender: "male", sms: true });
      await pastNight(server, [guest]);
      // Someone only ever on a waitlist: a phone and a gender, no email.
      const other = await upcoming(server, { name: "Full Night" });
      const waiterPhone = "+61400000999";
      server.deps.db
        .insert(waitlistEntries)
        .values({ eventId: other.id, phone: waiterPhone, gender: "female", name: "Wait Ing" })
        .run();
      recordConsent(server.deps.db, {
        channel: "sms",
        address: waiterPhone,
        given: true,
        source: "waitlist",
        phone: waiterPhone,
        at: server.deps.now(),
      });
      const count = async (audience: Record<string, unknown>) =>
        (
          await post(admin, "/api/announcements/preview", {
            eventID: event.id,
            audience,
            channels: ["sms"],
            text: "Hi",
          })
        ).body.recipients;
      expect(await count({})).toEqual({ sms: 3, email: 0 });
      expect(await count({ pastGuests: true })).toEqual({ sms: 1, email: 0 });
      expect(await count({ gender: "male" })).toEqual({ sms: 2, email: 0 });
      expect(await count({ gender: "female" })).toEqual({ sms: 1, email: 0 });
      expect(await count({ waitlisted: true })).toEqual({ sms: 1, email: 0 });
      expect(await count({ waitlisted: true, gender: "male" })).toEqual({ sms: 0, email: 0 });
      // A waitlist-only person has no date of birth: an age filter leaves them out.
      expect(await count({ waitlisted: true, ageFit: true })).toEqual({ sms: 0, email: 0 });
      void notGuest;
    });
  });

  it("sends at most INVITE_RATE_PER_MINUTE a minute, each person once per announcement, and a person who opts out mid-send gets nothing more", async () => {
    await withInviteServer(async ({ server, admin, texts }) => {
      const { db } = server.deps;
      const event = await upcoming(server);
      const people = Array.from({ length: 6 }, () => person(server, { gender: "male", sms: true }));
      const body = { eventID: event.id, audience: { gender: "male" }, channels: ["sms"], text: "Men wanted: {link}" };
      // The same request twice is two announcements: each person is due both, 12 texts in all.
      const first = await post(admin, "/api/announcements", body);
      const second = await post(admin, "/api/announcements", body);
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(first.body.id).not.toBe(second.body.id);

      const jobs = scheduler(server);
      const perMinute: number[] = [];
      let quitter: (typeof people)[number] | undefined;
      for (let minute = 0; minute < 6; minute++) {
        const before = texts.length;
        // Ticks within the minute send nothing past the rate.
        await jobs.tick();
        await jobs.tick();
        perMinute.push(texts.length - before);
        if (minute === 0) {
          // Someone who got the first announcement, and not yet the second, says no between ticks.
          const got = outboxOf(db, first.body.id as number).filter((r) => r.status === "sent");
          quitter = people.find((p) => p.phone === got[0]?.to);
          recordConsent(db, {
            channel: "sms",
            address: quitter!.phone,
            given: false,
            source: "inbound",
            phone: quitter!.phone,
            at: server.deps.now(),
          });
        }
        server.advance(MINUTE);
      }
      // 12 texts less the quitter's pending one at 5 a minute: 5, 5, 1, then nothing.
      expect(perMinute).toEqual([5, 5, 1, 0, 0, 0]);
      const all = [...outboxOf(db, first.body.id as number), ...outboxOf(db, second.body.id as number)];
      expect(all.filter((r) => r.status === "suppressed").map((r) => r.to)).toEqual([quitter!.phone]);
      expect(all.filter((r) => r.status === "sent")).toHaveLength(11);
      // Nobody got one announcement twice.
      const keys = texts.map((t) => t.to);
      for (const p of people) expect(keys.filter((k) => k === p.phone).length).toBe(p === quitter ? 1 : 2);
      expect(texts.every((t) => t.body.endsWith("Reply STOP to opt out"))).toBe(true);

      // What the organiser reads back: progress, and the bookings made through the link, by gender.
      const [womanBooked, manBooked] = [
        insertPaidBookings(db, event.id, 1, { gender: "female" })[0]!,
        insertPaidBookings(db, event.id, 2, { gender: "male" }),
      ];
      for (const b of [womanBooked, ...manBooked]) {
        db.update(bookings)
          .set({ announcementId: second.body.id as number })
          .where(eq(bookings.id, b.bookingId))
          .run();
      }
      // A refunded booking through the link is not counted.
      db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, manBooked[1]!.bookingId)).run();
      const list = await admin.get(`/api/admin-event/${event.id}/announcements`);
      expect(list.status).toBe(200);
      const rows = await json<Record<string, unknown>[]>(list);
      expect(rows.map((r) => [r.id, r.progress, r.booked])).toEqual([
        [second.body.id, { sent: 5, total: 6, suppressed: 1, failed: 0 }, { total: 2, female: 1, male: 1 }],
        [first.body.id, { sent: 6, total: 6, suppressed: 0, failed: 0 }, { total: 0, female: 0, male: 0 }],
      ]);
      expect(rows[0]).toMatchObject({
        channels: ["sms"],
        audience: { gender: "male" },
        text: "Men wanted: {link}",
        recipients: { sms: 6, email: 0 },
        createdAt: expect.stringMatching(/Z$/),
      });
      // The list names no one: no number, no address, no name.
      const raw = JSON.stringify(rows);
      for (const p of people) {
        expect(raw).not.toContain(p.phone);
        expect(raw).not.toContain(p.email);
        expect(raw).not.toContain(p.name);
      }
    });
  });

  it("refuses a text over 480 characters, a night that has started or was cancelled, email with EMAIL=off, and bad channels, queueing nothing", async () => {
    await withInviteServer(
      async ({ server, admin }) => {
        const { db } = server.deps;
        const event = await upcoming(server);
        person(server, { sms: true, email: true });
        const base = { eventID: event.id, channels: ["sms"], text: "Hi" };

        const long = await post(admin, "/api/announcements", { ...base, text: "x".repeat(460) });
        expect(long.status).toBe(400);
        expect(long.body.error).toMatch(/^The text message would be \d+ characters; keep it to 480\.$/);
        // The same text by email only is fine for length; email is off here.
        const email = await post(admin, "/api/announcements", { ...base, channels: ["email"] });
        expect(email.status).toBe(400);
        expect(email.body.error).toMatch(/Email is turned off/);
        for (const [channels, message] of [
          [[], /at least one way/],
          [["sms", "sms"], /once/],
          [["fax"], /"sms", "email"/],
        ] as const) {
          const r = await post(admin, "/api/announcements", { ...base, channels });
          expect(r.status).toBe(400);
          expect(r.body.error).toMatch(message);
        }
        const blank = await post(admin, "/api/announcements", { ...base, text: "   " });
        expect(blank).toMatchObject({ status: 400, body: { error: "Write the text of the invitation." } });

        const started = await upcoming(server, { status: "started", startsAt: server.deps.now() - MINUTE });
        const startedReply = await post(admin, "/api/announcements", { ...base, eventID: started.id });
        expect(startedReply).toMatchObject({ status: 409, body: { code: "wrong_state" } });
        expect(startedReply.body.error).toMatch(/already started/);
        const cancelled = await upcoming(server, { status: "cancelled" });
        expect((await post(admin, "/api/announcements", { ...base, eventID: cancelled.id })).status).toBe(409);
        expect((await post(admin, "/api/announcements/preview", { ...base, eventID: started.id })).status).toBe(409);
        expect((await post(admin, "/api/announcements", { ...base, eventID: 987_654 })).status).toBe(404);

        expect(db.select().from(announcements).all()).toEqual([]);
        expect(db.select().from(outboxMessages).where(eq(outboxMessages.purpose, "marketing")).all()).toEqual([]);
      },
      { EMAIL: "off" },
    );
  });

  it("is the organiser's alone: 401 with no session, 403 for a host link's session", async () => {
    await withInviteServer(async ({ server, admin }) => {
      const { night, newLink, hostPhone } = hostAccessHelpers(server, () => admin);
      const { event } = await night(2);
      const { phone: host } = await hostPhone(await newLink(event.id));
      const target = await upcoming(server);
      const anon = browserClient(server.url);
      const body = { eventID: target.id, channels: ["sms"], text: "Hi" };
      for (const client of [anon, host]) {
        const expected = client === anon ? 401 : 403;
        expect((await client.postJson("/api/announcements", body)).status).toBe(expected);
        expect((await client.postJson("/api/announcements/preview", body)).status).toBe(expected);
        expect((await client.get(`/api/admin-event/${target.id}/announcements`)).status).toBe(expected);
      }
      expect(server.deps.db.select().from(announcements).all()).toEqual([]);
    });
  });
});

describe("the audience never includes an address without current consent for its channel", () => {
  it("holds over random people, consent histories and filters", { timeout: 120_000 }, async () => {
    await withInviteServer(async ({ server, admin }) => {
      const { db } = server.deps;
      const rnd = random(36);
      const pick = <T>(list: readonly T[]) => list[rnd.int(0, list.length - 1)]!;
      type Known = {
        phone: string;
        gender: "male" | "female";
        dateOfBirth: string | null;
        /** Every address the person's forms gave, oldest first; the newest is the last. */
        emails: string[];
        pastGuest: boolean;
        waitlisted: boolean;
        choices: { sms: boolean[]; email: Map<string, boolean[]> };
      };
      const known: Known[] = [];
      const pastEvent = await pastNight(server, []);
      const waitEvent = await upcoming(server, { name: "Waitlist Night" });
      let serial = 0;

      const choose = (k: Known, channel: "sms" | "email", address: string, given: boolean) => {
        // An email's yes is its address's confirmation (docs/decisions/039); a text's, the number's own.
        const source = channel === "email" && given ? "confirmation" : "me";
        recordConsent(db, { channel, address, given, source, phone: k.phone, at: server.deps.now() });
        if (channel === "sms") k.choices.sms.push(given);
        else k.choices.email.set(address, [...(k.choices.email.get(address) ?? []), given]);
      };
      const newest = (list: boolean[] | undefined) => list?.at(-1) === true;

      for (let round = 0; round < 25; round++) {
        const event = await upcoming(server, {
          name: `Target ${round}`,
          fromAge: pick([20, 25, 30]),
          toAge: pick([30, 35, 60]),
        });
        // New people: with a details form (one or two, the newer one's email counting), or waitlist only.
        for (let i = rnd.int(1, 5); i > 0; i--) {
          serial++;
          const phone = `+6149${String(serial).padStart(7, "0")}`;
          const gender = pick(["male", "female"] as const);
          const k: Known = {
            phone,
            gender,
            dateOfBirth: null,
            emails: [],
            pastGuest: false,
            waitlisted: false,
            choices: { sms: [], email: new Map() },
          };
          if (rnd.next() < 0.8) {
            k.dateOfBirth = pick([null, ADULT_DATE_OF_BIRTH, OLD_DATE_OF_BIRTH, "2005-01-01"]);
            for (let forms = rnd.int(1, 2); forms > 0; forms--) {
              const email = `p${serial}-${forms}@example.com`;
              const user = db
                .insert(users)
                .values({
                  name: `Person ${serial}`,
                  email,
                  phone,
                  gender,
                  imageName: `${"0".repeat(32)}.jpg`,
                  thumbName: `${"0".repeat(32)}-thumb.jpg`,
                  dateOfBirth: k.dateOfBirth,
                })
                .returning()
                .get();
              k.emails.push(email);
              if (rnd.next() < 0.3) {
                db.insert(bookings)
                  .values({
                    userId: user.id,
                    eventId: pastEvent.id,
                    phone,
                    status: pick(["paid", "paid", "refunded"] as const),
                    holdExpiresAt: 0,
                    amountCents: 4500,
                    paymentIntentId: `pi_p${serial}_${forms}`,
                    paidAt: 1,
                  })
                  .run();
              }
            }
          }
          if (k.emails.length === 0 || rnd.next() < 0.3) {
            k.waitlisted = true;
            db.insert(waitlistEntries)
              .values({ eventId: waitEvent.id, phone, gender, name: `Person ${serial}`, status: "left" })
              .run();
          }
          known.push(k);
        }
        // Past guests: a paid (not refunded) seat at the ended night, under any of the person's forms.
        const paidPast = new Set(
          db
            .select({ phone: bookings.phone })
            .from(bookings)
            .where(and(eq(bookings.eventId, pastEvent.id), eq(bookings.status, "paid")))
            .all()
            .map((r) => r.phone),
        );
        for (const k of known) k.pastGuest = paidPast.has(k.phone);

        // Random choices by anyone so far, on either channel and any of their addresses.
        for (let n = rnd.int(0, 12); n > 0; n--) {
          const k = pick(known);
          if (rnd.next() < 0.5 || k.emails.length === 0) choose(k, "sms", k.phone, rnd.next() < 0.6);
          else choose(k, "email", pick(k.emails), rnd.next() < 0.6);
        }
        // Some already hold a seat at the target.
        const bookedPhones = new Set<string>();
        for (const k of known) {
          if (k.emails.length === 0 || rnd.next() > 0.1) continue;
          // A booking is one form: the same details again, so the newest email stays the same.
          const {
            id: _,
            createdAt: __,
            ...form
          } = db.select().from(users).where(eq(users.phone, k.phone)).all().at(-1)!;
          const user = db.insert(users).values(form).returning().get();
          db.insert(bookings)
            .values({
              userId: user.id,
              eventId: event.id,
              phone: k.phone,
              status: "paid",
              holdExpiresAt: 0,
              amountCents: 4500,
              paymentIntentId: `pi_t${event.id}_${user.id}`,
              paidAt: 1,
            })
            .run();
          bookedPhones.add(k.phone);
        }

        const audience = {
          ...(rnd.next() < 0.3 ? { pastGuests: true } : {}),
          ...(rnd.next() < 0.3 ? { ageFit: true } : {}),
          ...(rnd.next() < 0.3 ? { gender: pick(["male", "female"] as const) } : {}),
          ...(rnd.next() < 0.3 ? { waitlisted: true } : {}),
        };
        const filtered = Object.keys(audience).length > 0;
        const sent = await post(admin, "/api/announcements", {
          eventID: event.id,
          audience,
          channels: ["sms", "email"],
          text: "Come along: {link}",
        });
        expect(sent.status).toBe(201);
        const rows = outboxOf(db, sent.body.id as number);
        const queued = {
          sms: new Set(rows.filter((r) => r.channel === "sms").map((r) => r.to)),
          email: new Set(rows.filter((r) => r.channel === "email").map((r) => r.to)),
        };

        // The oracle: who should be asked, from the histories as the test recorded them.
        const bookedEmails = new Set(known.filter((k) => bookedPhones.has(k.phone)).flatMap((k) => k.emails.slice(-1)));
        const matches = (k: Known) =>
          (!audience.pastGuests || k.pastGuest) &&
          (!audience.waitlisted || k.waitlisted) &&
          (audience.gender === undefined || k.gender === audience.gender) &&
          (!audience.ageFit || (k.dateOfBirth !== null && ageAllowed(event, k.gender, k.dateOfBirth).ok));
        const expected = { sms: new Set<string>(), email: new Set<string>() };
        for (const k of known) {
          if (bookedPhones.has(k.phone)) continue;
          if (filtered && !matches(k)) continue;
          if (newest(k.choices.sms)) expected.sms.add(k.phone);
          const emails = filtered ? k.emails.slice(-1) : k.emails;
          for (const e of emails) if (newest(k.choices.email.get(e)) && !bookedEmails.has(e)) expected.email.add(e);
        }
        // Every queued address's newest choice for its channel is a yes, and every consenting match is there.
        for (const to of queued.sms) expect(newest(known.find((k) => k.phone === to)?.choices.sms)).toBe(true);
        for (const to of queued.email) {
          expect(newest(known.find((k) => k.emails.includes(to))?.choices.email.get(to))).toBe(true);
        }
        expect({ round, audience, sms: [...queued.sms].sort() }).toEqual({
          round,
          audience,
          sms: [...expected.sms].sort(),
        });
        expect({ round, audience, email: [...queued.email].sort() }).toEqual({
          round,
          audience,
          email: [...expected.email].sort(),
        });
        expect(sent.body.recipients).toEqual({ sms: expected.sms.size, email: expected.email.size });
      }
    });
  });
});
