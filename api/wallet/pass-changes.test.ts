import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, outboxMessages, users } from "../../db/schema.ts";
import { walletPasses, walletRegistrations } from "../../db/wallet-schema.ts";
import { type BrowserClient, suiteTestServer, type TestServer } from "../../test/api-harness.ts";
import { insertEvent } from "../../test/fixtures.ts";
import { guestBrowser, sessionBrowser } from "../../test/suites/team.ts";
import { paidTicket } from "../../test/suites/wallet.ts";
import { walletUpdatesSuite } from "../../test/suites/wallet-updates.ts";
import { ensureWalletPass, passAuthToken } from "./pass-facts.ts";

// When a ticket changes, its passes follow (issue 50; docs/decisions/055-wallet-updates.md): a refund,
// a guest's cancel, an event cancelled or moved each grow the pass's tag, push once to each Apple
// device that keeps it (to the local APNs) and PATCH Google's copy (to the local Google).

const DAY = 24 * 60 * 60 * 1000;
const { world, server } = walletUpdatesSuite();
let admin: BrowserClient;
beforeAll(() => {
  admin = sessionBrowser(server, null);
});

const pushToken = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex");

/**
 * A paid ticket given as both passes: saved to Google, and added on `devices` Apple devices that
 * registered with the web service as a device does.
 */
async function ticketInWallets(s: TestServer, options: Parameters<typeof paidTicket>[1] = {}, devices = 2) {
  const ticket = await paidTicket(s, options);
  const now = s.deps.now();
  ensureWalletPass(s.deps.db, ticket.bookingId, "google", now);
  const pass = ensureWalletPass(s.deps.db, ticket.bookingId, "apple", now);
  const auth = `ApplePass ${passAuthToken(s.deps.env, pass.serialNumber)}`;
  const tokens: string[] = [];
  for (let i = 0; i < devices; i++) {
    const token = pushToken();
    const response = await fetch(
      `${s.url}/api/passkit/v1/devices/dev${token.slice(0, 12)}/registrations/${world.keys.passTypeId}/${pass.serialNumber}`,
      {
        method: "POST",
        headers: { "content-type": "application/json", authorization: auth },
        body: JSON.stringify({ pushToken: token }),
      },
    );
    expect(response.status).toBe(201);
    tokens.push(token);
  }
  const paymentIntentId = refundable(s, ticket.bookingId);
  const email = s.deps.db.select().from(users).where(eq(users.id, ticket.userId)).get()!.email;
  return { ...ticket, serial: pass.serialNumber, auth, tokens, paymentIntentId, email };
}

/** The booking paid through the local provider (`pi_local_…`), so the organiser's Refund goes through. */
function refundable(s: TestServer, bookingId: number) {
  const paymentIntentId = `pi_local_wallet_${bookingId}_${Math.random().toString(36).slice(2)}`;
  s.deps.db.update(bookings).set({ paymentIntentId }).where(eq(bookings.id, bookingId)).run();
  return paymentIntentId;
}

const tagOf = (s: TestServer, bookingId: number) =>
  s.deps.db.select().from(walletPasses).where(eq(walletPasses.bookingId, bookingId)).get()!.updateTag;

/** The pushes APNs answered for these tokens, once all `count` of them came. */
async function pushesTo(tokens: string[], count: number) {
  const mine = () => world.apns.delivered().filter((p) => tokens.includes(p.token));
  const deadline = Date.now() + 15_000;
  while (mine().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return mine();
}

/** Google's PATCHes of one id, once `count` came. */
async function patchesOf(id: string, count: number) {
  const mine = () => world.google.patches.filter((p) => p.id === id);
  const deadline = Date.now() + 15_000;
  while (mine().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return mine();
}

/** The pass the web service now sends, as pass.json. */
async function latestPass(s: TestServer, ticket: { serial: string; auth: string }) {
  const response = await fetch(`${s.url}/api/passkit/v1/passes/${world.keys.passTypeId}/${ticket.serial}`, {
    headers: { authorization: ticket.auth },
  });
  expect(response.status).toBe(200);
  const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
  return Buffer.from(files["pass.json"]!).toString("utf8");
}

/** Nothing a push or PATCH carried names the guest's phone or email, or another guest. */
function expectNothingPersonal(words: (string | null)[]) {
  const sent = [
    ...world.apns.pushes.map((p) => `${p.body} ${JSON.stringify(p.headers)}`),
    ...world.google.patches.map((p) => p.raw),
  ].join("\n");
  for (const word of words) if (word) expect(sent).not.toContain(word);
}

describe("a ticket's passes when it changes", () => {
  it("a refund: the tag grows, each device gets one push, Google's object goes INACTIVE, the next pass says NOT VALID", async () => {
    const ticket = await ticketInWallets(server);
    const other = await ticketInWallets(server, { eventId: ticket.eventId, name: "Other Guest" }, 1);
    const before = tagOf(server, ticket.bookingId);
    expect((await admin.postJson("/api/refund", { paymentIntentId: ticket.paymentIntentId })).status).toBe(200);
    expect(tagOf(server, ticket.bookingId)).toBeGreaterThan(before);

    const pushes = await pushesTo(ticket.tokens, 2);
    expect(pushes.map((p) => p.token).sort()).toEqual([...ticket.tokens].sort());
    for (const push of pushes) {
      expect(push.body).toBe("{}");
      expect(push.headers).toMatchObject({ "apns-topic": world.keys.passTypeId, "apns-push-type": "background" });
      expect(push.clientSubject.CN).toBe(`Pass Type ID: ${world.keys.passTypeId}`);
    }
    const objectId = `${world.keys.issuerId}.ticket-${ticket.serial}`;
    expect((await patchesOf(objectId, 1)).map((p) => [p.resource, p.body])).toEqual([
      ["eventTicketObject", { state: "INACTIVE" }],
    ]);
    expect(await latestPass(server, ticket)).toContain("NOT VALID");
    // The other guest's pass did not change: no push to their device.
    expect(world.apns.pushes.filter((p) => other.tokens.includes(p.token))).toEqual([]);
    // A second look after a while: still one push per device (the outbox sent each once).
    await new Promise((r) => setTimeout(r, 300));
    expect(world.apns.pushes.filter((p) => ticket.tokens.includes(p.token))).toHaveLength(2);
    expectNothingPersonal([ticket.phone, ticket.email, "Asha Rao", "Other Guest", other.phone]);
  });

  it("a guest's cancel with nothing to refund: one push per device, INACTIVE, NOT VALID (Booking cancelled)", async () => {
    const ticket = await ticketInWallets(server, {
      event: { startsAt: Date.now() + 2 * DAY, cancelFullRefundHours: 72, cancelLaterPercent: 0 },
    });
    const before = tagOf(server, ticket.bookingId);
    const guest = guestBrowser(server, ticket.phone);
    const cancelled = await guest.postJson("/api/cancel-booking", { eventID: ticket.eventId, userID: ticket.userId });
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as { status: string }).status).toBe("cancelled");
    expect(tagOf(server, ticket.bookingId)).toBeGreaterThan(before);
    expect(await pushesTo(ticket.tokens, 2)).toHaveLength(2);
    expect((await patchesOf(`${world.keys.issuerId}.ticket-${ticket.serial}`, 1))[0]!.body).toEqual({
      state: "INACTIVE",
    });
    const pass = await latestPass(server, ticket);
    expect(pass).toContain("NOT VALID");
    expect(pass).toContain("Booking cancelled");
    expectNothingPersonal([ticket.phone, ticket.email]);
  });

  it("an event cancelled: every ticket with a pass changes once (its refunds add no second push)", async () => {
    const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { name: "Called Off" });
    const a = await ticketInWallets(server, { eventId: event.id, name: "Ana Lee" });
    const b = await ticketInWallets(server, { eventId: event.id, name: "Bo Chan" }, 1);
    const withoutPass = await paidTicket(server, { eventId: event.id, name: "No Wallet" });
    expect((await admin.postJson("/api/cancel-event", { eventId: event.id })).status).toBe(200);
    expect(tagOf(server, a.bookingId)).toBe(tagOf(server, b.bookingId));
    const pushes = await pushesTo([...a.tokens, ...b.tokens], 3);
    expect(pushes.map((p) => p.token).sort()).toEqual([...a.tokens, ...b.tokens].sort());
    for (const t of [a, b])
      expect((await patchesOf(`${world.keys.issuerId}.ticket-${t.serial}`, 1)).map((p) => p.body)).toEqual([
        { state: "INACTIVE" },
      ]);
    expect(await latestPass(server, a)).toContain("Event cancelled");
    await new Promise((r) => setTimeout(r, 300));
    expect(world.apns.pushes.filter((p) => [...a.tokens, ...b.tokens].includes(p.token))).toHaveLength(3);
    expect(
      server.deps.db.select().from(walletPasses).where(eq(walletPasses.bookingId, withoutPass.bookingId)).get(),
    ).toBeUndefined();
    expectNothingPersonal([a.phone, b.phone, a.email, b.email, withoutPass.phone]);
  });

  it("an event moved: one push per device, Google's class gets the new dateTime, the next pass the new time", async () => {
    const startsAt = Date.now() + 10 * DAY;
    const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, {
      name: "Moving Night",
      startsAt: startsAt - (startsAt % (60 * 60 * 1000)),
    });
    const ticket = await ticketInWallets(server, { eventId: event.id });
    const before = tagOf(server, ticket.bookingId);
    const moved = new Date(event.startsAt + DAY + 30 * 60 * 1000);
    const update = await admin.postJson("/api/update-event", {
      eventid: event.id,
      eventName: event.name,
      eventDate: moved.toISOString().slice(0, 10),
      eventTime: moved.toISOString().slice(11, 16),
      totalSeats: event.totalSeats,
    });
    expect(update.status).toBe(200);
    expect(tagOf(server, ticket.bookingId)).toBeGreaterThan(before);
    expect(await pushesTo(ticket.tokens, 2)).toHaveLength(2);
    const classId = `${world.keys.issuerId}.event-${event.id}`;
    const [patch] = await patchesOf(classId, 1);
    expect(patch?.resource).toBe("eventTicketClass");
    const dateTime = (patch!.body as { dateTime: { start: string; end: string; doorsOpen: string } }).dateTime;
    expect(dateTime.start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(Date.parse(dateTime.start)).toBe(moved.getTime());
    expect(Date.parse(dateTime.end)).toBe(moved.getTime() + event.durationHours * 60 * 60 * 1000);
    expect(Date.parse(dateTime.doorsOpen)).toBeLessThan(moved.getTime());
    // The ticket's own object is left as it is: it still gets its holder in.
    expect(world.google.patches.filter((p) => p.id === `${world.keys.issuerId}.ticket-${ticket.serial}`)).toEqual([]);
    const pass = JSON.parse(await latestPass(server, ticket)) as {
      relevantDate?: string;
      semantics?: { eventStartDate?: string };
    };
    expect(Date.parse(pass.semantics?.eventStartDate ?? "")).toBe(moved.getTime());
    // An edit of nothing a pass shows (the price) changes no pass.
    const tag = tagOf(server, ticket.bookingId);
    const price = await admin.postJson("/api/update-event", {
      eventid: event.id,
      eventName: event.name,
      eventDate: moved.toISOString().slice(0, 10),
      eventTime: moved.toISOString().slice(11, 16),
      totalSeats: event.totalSeats + 2,
    });
    expect(price.status).toBe(200);
    expect(tagOf(server, ticket.bookingId)).toBe(tag);
    expectNothingPersonal([ticket.phone, ticket.email, "Asha Rao"]);
  });

  it("a change before any pass was given pushes and PATCHes nothing", async () => {
    const ticket = await paidTicket(server, { name: "Never Added" });
    const paymentIntentId = refundable(server, ticket.bookingId);
    const pushes = world.apns.pushes.length;
    const patches = world.google.patches.length;
    expect((await admin.postJson("/api/refund", { paymentIntentId })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(world.apns.pushes.length).toBe(pushes);
    expect(world.google.patches.length).toBe(patches);
    expect(
      server.deps.db.select().from(walletPasses).where(eq(walletPasses.bookingId, ticket.bookingId)).get(),
    ).toBeUndefined();
  });

  it("forgets a device APNs says is gone (410), and keeps one Google token for many PATCHes", async () => {
    const ticket = await ticketInWallets(server, {}, 2);
    world.apns.unregistered.add(ticket.tokens[0]!);
    const before = world.apns.pushes.length;
    expect((await admin.postJson("/api/refund", { paymentIntentId: ticket.paymentIntentId })).status).toBe(200);
    await world.apns.waitFor(before + 2);
    const deadline = Date.now() + 10_000;
    const registered = () =>
      server.deps.db
        .select()
        .from(walletRegistrations)
        .where(eq(walletRegistrations.serialNumber, ticket.serial))
        .all()
        .map((r) => r.pushToken);
    while (registered().length > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(registered()).toEqual([ticket.tokens[1]]);
    const failed = server.deps.db.select().from(outboxMessages).where(eq(outboxMessages.to, ticket.tokens[0]!)).get();
    expect(failed).toMatchObject({ channel: "apns", status: "failed" });
    expect(world.google.tokensGiven).toBe(1);
    expect(world.google.refused).toEqual([]);
  });
});

describe("a ticket's change with no wallet configured", () => {
  const bare = suiteTestServer();
  it("queues nothing for any wallet", async () => {
    const ticket = await paidTicket(bare);
    ensureWalletPass(bare.deps.db, ticket.bookingId, "apple", bare.deps.now());
    const paymentIntentId = refundable(bare, ticket.bookingId);
    expect((await sessionBrowser(bare, null).postJson("/api/refund", { paymentIntentId })).status).toBe(200);
    const channels = bare.deps.db.select({ channel: outboxMessages.channel }).from(outboxMessages).all();
    expect(channels.filter((c) => c.channel === "apns" || c.channel === "google_wallet")).toEqual([]);
  });
});
