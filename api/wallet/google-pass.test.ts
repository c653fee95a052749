import { createPublicKey, verify } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, events, users } from "../../db/schema.ts";
import { browserClient, suiteTestServer, withTestServer } from "../../test/api-harness.ts";
import { makeWalletKeys } from "../../test/fakes/wallet-keys.ts";
import { guestBrowser, insertMember, sessionBrowser } from "../../test/suites/team.ts";
import { paidTicket } from "../../test/suites/wallet.ts";
import { doorQrLink } from "../booking/ticket.ts";

// The Google Wallet save link (issue 50): the JWT checked with the test service account's public
// half, its class and object against Google's REST reference, who may ask for it, and the wallet
// flags the PWA and the desk read.

const DAY = 24 * 60 * 60 * 1000;
const keys = makeWalletKeys();
const server = suiteTestServer({ env: keys.env });

type Jwt = { header: Record<string, unknown>; claims: Record<string, unknown>; text: string };

/** The save link's JWT, its signature verified (RS256, the service account's key) before it is read. */
function readSaveLink(url: string): Jwt {
  expect(url.startsWith("https://pay.google.com/gp/v/save/")).toBe(true);
  const jwt = url.slice("https://pay.google.com/gp/v/save/".length);
  const [header, claims, signature] = jwt.split(".") as [string, string, string];
  const signed = verify(
    "RSA-SHA256",
    Buffer.from(`${header}.${claims}`),
    createPublicKey(keys.googlePublicKey),
    Buffer.from(signature, "base64url"),
  );
  expect(signed, "the JWT's RS256 signature verifies with the service account's public key").toBe(true);
  const decode = (part: string) => Buffer.from(part, "base64url").toString("utf8");
  return {
    header: JSON.parse(decode(header)),
    claims: JSON.parse(decode(claims)),
    text: `${decode(header)}${decode(claims)}`,
  };
}

async function saveLink(path: string, client = browserClient(server.url)) {
  const response = await client.get(path);
  return { response, body: (await response.json()) as { url?: string; code?: string } };
}

// biome-ignore lint/suspicious/noExplicitAny: the JWT's payload is checked field by field below.
const payloadOf = (jwt: Jwt) => jwt.claims.payload as any;

describe("the Google Wallet save link", () => {
  it("is a JWT signed RS256 by the service account, with the event's class and the ticket's object", async () => {
    const ticket = await paidTicket(server, { name: "Asha Rao" });
    const { response, body } = await saveLink(`/api/wallet/google/${ticket.bookingId}?t=${ticket.token}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const jwt = readSaveLink(body.url!);
    expect(jwt.header).toMatchObject({ alg: "RS256", typ: "JWT", kid: "test-key-1" });
    expect(jwt.claims).toMatchObject({
      iss: keys.googleClientEmail,
      aud: "google",
      typ: "savetowallet",
      origins: [server.deps.env.PUBLIC_BASE_URL],
    });
    expect(Math.abs((jwt.claims.iat as number) * 1000 - server.deps.now())).toBeLessThan(5000);
    const { eventTicketClasses, eventTicketObjects } = payloadOf(jwt);
    const event = server.deps.db.select().from(events).where(eq(events.id, ticket.eventId)).get()!;
    const [klass] = eventTicketClasses;
    expect(klass).toMatchObject({
      id: `${keys.issuerId}.event-${ticket.eventId}`,
      issuerName: server.deps.env.BUSINESS_NAME,
      eventName: { defaultValue: { language: "en-AU", value: event.name } },
      venue: {
        name: { defaultValue: { language: "en-AU", value: "1 George St" } },
        address: { defaultValue: { language: "en-AU", value: event.address } },
      },
      reviewStatus: "UNDER_REVIEW",
    });
    // ISO 8601 with the venue's offset (Sydney: +10:00 or +11:00), the same instant as the event's start.
    expect(klass.dateTime.start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+1[01]:00$/);
    expect(Date.parse(klass.dateTime.start)).toBe(Math.floor(event.startsAt / 1000) * 1000);
    expect(Date.parse(klass.dateTime.end)).toBe(
      Math.floor((event.startsAt + event.durationHours * 3600_000) / 1000) * 1000,
    );
    expect(Date.parse(klass.dateTime.doorsOpen)).toBeLessThan(Date.parse(klass.dateTime.start));
    const [object] = eventTicketObjects;
    expect(object).toMatchObject({
      classId: klass.id,
      state: "ACTIVE",
      ticketHolderName: "Asha Rao",
      ticketNumber: ticket.uniqueCode,
      barcode: {
        type: "QR_CODE",
        value: doorQrLink(server.deps.env, ticket.eventId, ticket.userId),
        alternateText: ticket.uniqueCode,
      },
    });
    expect(object.id).toMatch(new RegExp(`^${keys.issuerId}\\.ticket-[0-9a-f-]{36}$`));
    expect(JSON.stringify(object.textModulesData)).not.toContain("NOT VALID");
  });

  it("keeps one object per ticket: the same id on every call, and the booking's wallet row notes Google", async () => {
    const ticket = await paidTicket(server);
    const path = `/api/wallet/google/${ticket.bookingId}?t=${ticket.token}`;
    const first = payloadOf(readSaveLink((await saveLink(path)).body.url!)).eventTicketObjects[0].id;
    const second = payloadOf(readSaveLink((await saveLink(path)).body.url!)).eventTicketObjects[0].id;
    expect(second).toBe(first);
    const row = server.deps.db.$client
      .prepare("select serial_number as serial, google_saved_at as saved from wallet_passes where booking_id = ?")
      .get(ticket.bookingId) as { serial: string; saved: number | null };
    expect(first).toBe(`${keys.issuerId}.ticket-${row.serial}`);
    expect(row.saved).not.toBeNull();
  });

  it("makes a refunded ticket's object INACTIVE, saying NOT VALID and why, with no barcode", async () => {
    const ticket = await paidTicket(server);
    server.deps.db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, ticket.bookingId)).run();
    const { response, body } = await saveLink(`/api/wallet/google/${ticket.bookingId}?t=${ticket.token}`);
    expect(response.status).toBe(200);
    const [object] = payloadOf(readSaveLink(body.url!)).eventTicketObjects;
    expect(object.state).toBe("INACTIVE");
    expect(object.barcode).toBeUndefined();
    expect(object.textModulesData[0]).toEqual({ id: "status", header: "NOT VALID", body: "Refunded" });
  });

  it("follows a moved event: the next link has the new time", async () => {
    const ticket = await paidTicket(server);
    const path = `/api/wallet/google/${ticket.bookingId}?t=${ticket.token}`;
    const before = payloadOf(readSaveLink((await saveLink(path)).body.url!)).eventTicketClasses[0].dateTime.start;
    const event = server.deps.db.select().from(events).where(eq(events.id, ticket.eventId)).get()!;
    const movedTo = event.startsAt + 2 * DAY + 30 * 60_000;
    server.deps.db.update(events).set({ startsAt: movedTo }).where(eq(events.id, ticket.eventId)).run();
    const after = payloadOf(readSaveLink((await saveLink(path)).body.url!)).eventTicketClasses[0].dateTime.start;
    expect(after).not.toBe(before);
    expect(Date.parse(after)).toBe(Math.floor(movedTo / 1000) * 1000);
  });

  it("carries no phone number, no email address and nothing about another guest", async () => {
    const ticket = await paidTicket(server, { name: "Asha Rao" });
    const other = await paidTicket(server, { eventId: ticket.eventId, name: "Zubin Other" });
    const guest = server.deps.db.select().from(users).where(eq(users.id, ticket.userId)).get()!;
    const { body } = await saveLink(`/api/wallet/google/${ticket.bookingId}?t=${ticket.token}`);
    const { text } = readSaveLink(body.url!);
    expect(text).toContain("Asha Rao");
    for (const secret of [
      guest.phone,
      guest.phone.slice(3),
      guest.email!,
      "Zubin Other",
      other.phone,
      other.uniqueCode,
    ])
      expect(text, secret).not.toContain(secret);
  });
});

describe("who may have the save link", () => {
  it("refuses a missing, wrong or another booking's token (403), and answers the owner's /me session", async () => {
    const ticket = await paidTicket(server);
    const other = await paidTicket(server);
    const codeOf = async (path: string, client = browserClient(server.url)) => {
      const { response, body } = await saveLink(path, client);
      return `${response.status} ${body.code ?? "url"}`;
    };
    expect(await codeOf(`/api/wallet/google/${ticket.bookingId}`)).toBe("403 invalid_link");
    expect(await codeOf(`/api/wallet/google/${ticket.bookingId}?t=wrong`)).toBe("403 invalid_link");
    expect(await codeOf(`/api/wallet/google/${ticket.bookingId}?t=${other.token}`)).toBe("403 invalid_link");
    expect(await codeOf(`/api/wallet/google/${ticket.bookingId}`, guestBrowser(server, ticket.phone))).toBe("200 url");
    expect(await codeOf(`/api/wallet/google/${ticket.bookingId}`, guestBrowser(server, other.phone))).toBe(
      "403 invalid_link",
    );
    // A session does not stand in for a wrong token.
    expect(await codeOf(`/api/wallet/google/${ticket.bookingId}?t=wrong`, guestBrowser(server, ticket.phone))).toBe(
      "403 invalid_link",
    );
    // An unknown booking with its own valid token: 404; an unknown booking to a session: 403, as another's.
    const { linkToken } = await import("../lib/capability.ts");
    const missing = 987_654_321;
    expect(await codeOf(`/api/wallet/google/${missing}?t=${linkToken(server.deps.env, "ticket", missing)}`)).toBe(
      "404 not_found",
    );
    expect(await codeOf(`/api/wallet/google/${missing}`, guestBrowser(server, ticket.phone))).toBe("403 invalid_link");
  });

  it("answers 409 for a booking never paid, and 404 with nothing made when Google Wallet is not set up", async () => {
    const ticket = await paidTicket(server);
    server.deps.db.update(bookings).set({ status: "held" }).where(eq(bookings.id, ticket.bookingId)).run();
    const held = await saveLink(`/api/wallet/google/${ticket.bookingId}?t=${ticket.token}`);
    expect(`${held.response.status} ${held.body.code}`).toBe("409 not_paid");

    await withTestServer(async (bare) => {
      const t = await paidTicket(bare);
      const response = await fetch(`${bare.url}/api/wallet/google/${t.bookingId}?t=${t.token}`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { code: string }).code).toBe("not_found");
      const rows = bare.deps.db.$client.prepare("select count(*) as n from wallet_passes").get() as { n: number };
      expect(rows.n).toBe(0);
    });
  });
});

describe("the wallet flags", () => {
  it("public-config says which wallets are set up", async () => {
    const on = (await (await fetch(`${server.url}/api/public-config`)).json()) as { wallet: unknown };
    expect(on.wallet).toEqual({ apple: true, google: true });
    await withTestServer(async (bare) => {
      const off = (await (await fetch(`${bare.url}/api/public-config`)).json()) as { wallet: unknown };
      expect(off.wallet).toEqual({ apple: false, google: false });
    });
  });

  it("wallet-status answers the owner, a Manager and Finance; the door 403, nobody 401", async () => {
    const statusFor = async (client: ReturnType<typeof browserClient>) =>
      (await client.get("/api/wallet-status")).status;
    expect(await statusFor(sessionBrowser(server, null))).toBe(200);
    expect(await statusFor(sessionBrowser(server, insertMember(server.deps.db, "manager").id))).toBe(200);
    expect(await statusFor(sessionBrowser(server, insertMember(server.deps.db, "finance").id))).toBe(200);
    expect(await statusFor(sessionBrowser(server, insertMember(server.deps.db, "door").id))).toBe(403);
    expect(await statusFor(browserClient(server.url))).toBe(401);
    const response = await sessionBrowser(server, null).get("/api/wallet-status");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const status = (await response.json()) as {
      apple: { configured: boolean; certificateExpiresAt: string; expiresSoon: boolean };
      google: { configured: boolean };
    };
    expect(status.apple.configured).toBe(true);
    expect(status.apple.expiresSoon).toBe(false);
    // makeWalletKeys' certificate lasts 365 days from now.
    expect(Date.parse(status.apple.certificateExpiresAt) - Date.now()).toBeGreaterThan(300 * DAY);
    expect(status.google).toEqual({ configured: true });
  });

  it("wallet-status says the certificate expires soon within 30 days, and nothing is set up without keys", async () => {
    const near = makeWalletKeys({ certificateDays: 10 });
    await withTestServer({ env: near.env }, async (soon) => {
      const status = (await (await sessionBrowser(soon, null).get("/api/wallet-status")).json()) as {
        apple: { expiresSoon: boolean; certificateExpiresAt: string };
      };
      expect(status.apple.expiresSoon).toBe(true);
      expect(Date.parse(status.apple.certificateExpiresAt) - Date.now()).toBeLessThan(11 * DAY);
    });
    await withTestServer(async (bare) => {
      const status = await (await sessionBrowser(bare, null).get("/api/wallet-status")).json();
      expect(status).toEqual({
        apple: { configured: false, certificateExpiresAt: null, expiresSoon: false },
        google: { configured: false },
      });
    });
  });
});
