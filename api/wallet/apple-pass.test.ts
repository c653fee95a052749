import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import QRCode from "qrcode";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { OVER_AFTER_PLANNED_END_MS, plannedEnd } from "../../common/ticket-status.ts";
import { formatVenueTime } from "../../common/time-zone.ts";
import { bookings, events } from "../../db/schema.ts";
import { walletPasses } from "../../db/wallet-schema.ts";
import { browserClient, suiteTestServer, type TestServer, withTestServer } from "../../test/api-harness.ts";
import { makeWalletKeys } from "../../test/fakes/wallet-keys.ts";
import { guestBrowser } from "../../test/suites/team.ts";
import { paidTicket } from "../../test/suites/wallet.ts";
import { doorQrLink } from "../booking/ticket.ts";
import { parseEnv } from "../env.ts";
import { loadWalletKeys, WalletKeyError } from "./keys.ts";
import { passAuthToken } from "./pass-facts.ts";

// The Apple Wallet pass (issue 50), checked with no Apple server: the .pkpass unzipped, each file's
// SHA-1 against manifest.json, the detached signature verified by Debian's openssl against the test
// CA that stands in for Apple's WWDR, pass.json against the keys Apple's PassKit Package Format
// requires and the ones this pass uses, and who may download it.

const keys = makeWalletKeys();
const server = suiteTestServer({ env: keys.env });
afterAll(() => rmSync(keys.dir, { recursive: true, force: true }));

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const passUrl = (bookingId: number, token?: string) =>
  `/api/wallet/apple/${bookingId}${token === undefined ? "" : `?t=${encodeURIComponent(token)}`}`;

async function download(bookingId: number, token?: string) {
  const response = await browserClient(server.url).get(passUrl(bookingId, token));
  expect(response.status).toBe(200);
  return unzipSync(new Uint8Array(await response.arrayBuffer()));
}

const passJsonOf = (files: Record<string, Uint8Array>) => JSON.parse(strFromU8(files["pass.json"]!)) as PassJson;

/** `openssl smime -verify` of a pass's signature over `manifest` (exit 0 or not), with the test CA. */
function opensslVerifies(signature: Uint8Array, manifest: Uint8Array): boolean {
  const dir = mkdtempSync(join(tmpdir(), "sdt-pkpass-"));
  try {
    writeFileSync(join(dir, "signature"), signature);
    writeFileSync(join(dir, "manifest.json"), manifest);
    execFileSync(
      "openssl",
      [
        "smime",
        "-verify",
        "-binary",
        "-inform",
        "DER",
        "-in",
        "signature",
        "-content",
        "manifest.json",
        "-CAfile",
        keys.caCertPath,
        "-purpose",
        "any",
        "-out",
        "/dev/null",
      ],
      { cwd: dir, stdio: "pipe" },
    );
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// pass.json as Apple's PassKit Package Format describes it (developer.apple.com/documentation/
// walletpasses/pass): the keys every pass requires, and those an event ticket of ours uses.
const rgb = z.string().regex(/^rgb\(\s*\d{1,3},\s*\d{1,3},\s*\d{1,3}\)$/);
const w3cDate = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
const field = z.strictObject({
  key: z.string().min(1),
  label: z.string().optional(),
  value: z.string().min(1),
  changeMessage: z.string().includes("%@").optional(),
  textAlignment: z.enum(["PKTextAlignmentLeft", "PKTextAlignmentCenter", "PKTextAlignmentRight"]).optional(),
  dataDetectorTypes: z.array(z.enum(["PKDataDetectorTypeAddress", "PKDataDetectorTypeLink"])).optional(),
});
const passJson = z.object({
  formatVersion: z.literal(1),
  passTypeIdentifier: z.string().min(1),
  teamIdentifier: z.string().min(1),
  serialNumber: z.string().min(1),
  organizationName: z.string().min(1),
  description: z.string().min(1),
  logoText: z.string().optional(),
  webServiceURL: z.url(),
  authenticationToken: z.string().min(16),
  backgroundColor: rgb,
  foregroundColor: rgb,
  labelColor: rgb,
  voided: z.boolean().optional(),
  relevantDate: w3cDate,
  expirationDate: w3cDate,
  barcodes: z
    .array(
      z.strictObject({
        format: z.literal("PKBarcodeFormatQR"),
        message: z.string().min(1),
        messageEncoding: z.literal("iso-8859-1"),
        altText: z.string().optional(),
      }),
    )
    .min(1)
    .optional(),
  semantics: z.strictObject({
    eventType: z.literal("PKEventTypeSocialGathering"),
    eventName: z.string().min(1),
    eventStartDate: w3cDate,
    eventEndDate: w3cDate,
    venueName: z.string().min(1),
  }),
  eventTicket: z.object({
    headerFields: z.array(field).max(3),
    primaryFields: z.array(field).min(1).max(1),
    secondaryFields: z.array(field).max(4),
    auxiliaryFields: z.array(field).max(4),
    backFields: z.array(field),
  }),
});
type PassJson = z.infer<typeof passJson>;

/** Every field of the pass's front and back, by key. */
const fieldsOf = (pass: PassJson) =>
  Object.fromEntries(
    [
      ...pass.eventTicket.headerFields,
      ...pass.eventTicket.primaryFields,
      ...pass.eventTicket.secondaryFields,
      ...pass.eventTicket.auxiliaryFields,
      ...pass.eventTicket.backFields,
    ].map((f) => [f.key, f]),
  );

describe("the .pkpass", () => {
  it("is a zip whose every file's SHA-1 is in manifest.json, signed so that openssl verifies it with the CA", async () => {
    const ticket = await paidTicket(server);
    const response = await browserClient(server.url).get(passUrl(ticket.bookingId, ticket.token));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="ticket.pkpass"');
    expect(response.headers.get("cache-control")).toBe("no-store");
    const row = server.deps.db.select().from(walletPasses).where(eq(walletPasses.bookingId, ticket.bookingId)).get();
    expect(row?.appleIssuedAt).not.toBeNull();
    expect(response.headers.get("last-modified")).toBe(new Date(row!.updatedAt).toUTCString());

    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([
      "icon.png",
      "icon@2x.png",
      "icon@3x.png",
      "logo.png",
      "logo@2x.png",
      "logo@3x.png",
      "manifest.json",
      "pass.json",
      "signature",
    ]);
    const manifest = JSON.parse(strFromU8(files["manifest.json"]!)) as Record<string, string>;
    const signed = Object.keys(files).filter((name) => name !== "manifest.json" && name !== "signature");
    expect(Object.keys(manifest).sort()).toEqual(signed.sort());
    for (const name of signed) expect(manifest[name], name).toBe(createHash("sha1").update(files[name]!).digest("hex"));
    // A PNG each, at Apple's sizes.
    expect(files["icon.png"]!.subarray(1, 4)).toEqual(new TextEncoder().encode("PNG"));
    expect(new DataView(files["icon@2x.png"]!.buffer, files["icon@2x.png"]!.byteOffset).getUint32(16)).toBe(58);

    expect(opensslVerifies(files.signature!, files["manifest.json"]!)).toBe(true);
    const tampered = strFromU8(files["manifest.json"]!).replace(/"pass\.json":"[0-9a-f]/, '"pass.json":"x');
    expect(opensslVerifies(files.signature!, new TextEncoder().encode(tampered))).toBe(false);
  });

  it("holds the pass.json Apple's format asks for: the ids, the web service, the event's facts, the door's QR", async () => {
    const { db, env } = server.deps;
    const startsAt = Date.now() + 5 * DAY;
    const ticket = await paidTicket(server, {
      name: "Priya Shah",
      event: {
        name: "Rooftop Mixer",
        startsAt,
        doorsOpenAt: startsAt - 30 * 60 * 1000,
        address: "The Glasshouse, 2 Bay St, Sydney NSW 2000",
      },
    });
    db.update(events).set({ venueNotes: "Take the lift to level 3." }).where(eq(events.id, ticket.eventId)).run();
    const pass = passJson.parse(passJsonOf(await download(ticket.bookingId, ticket.token)));
    const serial = db.select().from(walletPasses).where(eq(walletPasses.bookingId, ticket.bookingId)).get()!;

    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: keys.passTypeId,
      teamIdentifier: keys.teamId,
      serialNumber: serial.serialNumber,
      organizationName: env.BUSINESS_NAME,
      description: "Ticket: Rooftop Mixer",
      webServiceURL: `${env.PUBLIC_BASE_URL}/api/passkit`,
      authenticationToken: passAuthToken(env, serial.serialNumber),
    });
    expect(pass.voided).toBeUndefined();
    const event = db.select().from(events).where(eq(events.id, ticket.eventId)).get()!;
    // Relevant from the organiser's doors-open time.
    const doorsOpenAt = startsAt - 30 * 60 * 1000;
    expect(new Date(pass.relevantDate).getTime()).toBe(doorsOpenAt);
    const end = plannedEnd(startsAt, event.durationHours);
    expect(new Date(pass.expirationDate).getTime()).toBe(end + OVER_AFTER_PLANNED_END_MS);
    expect(pass.semantics).toEqual({
      eventType: "PKEventTypeSocialGathering",
      eventName: "Rooftop Mixer",
      eventStartDate: new Date(startsAt).toISOString(),
      eventEndDate: new Date(end).toISOString(),
      venueName: "The Glasshouse",
    });

    const fields = fieldsOf(pass);
    expect(pass.eventTicket.primaryFields[0]?.value).toBe("Rooftop Mixer");
    // The venue's clock with its zone, as the ticket page shows it.
    expect(fields.starts?.value).toBe(formatVenueTime(startsAt, "Australia/Sydney"));
    expect(fields.starts?.value).toMatch(/ (AEDT|AEST)$/);
    expect(fields.doors?.value).toBe(formatVenueTime(doorsOpenAt, "Australia/Sydney"));
    expect(fields.guest?.value).toBe("Priya Shah");
    expect(fields.code?.value).toBe(ticket.uniqueCode);
    expect(fields.address?.value).toBe("The Glasshouse, 2 Bay St, Sydney NSW 2000");
    expect(fields.notes?.value).toBe("Take the lift to level 3.");
    expect(fields.organiser?.value).toBe(env.BUSINESS_NAME);
    expect(fields.support?.value).toBe(env.SUPPORT_EMAIL);
    expect(fields.cancel?.value).toContain(`${env.PUBLIC_BASE_URL}/me`);

    // The QR: the door link today's ticket encodes, exactly, so the door needs no change.
    const door = doorQrLink(env, ticket.eventId, ticket.userId);
    expect(pass.barcodes).toEqual([
      { format: "PKBarcodeFormatQR", message: door, messageEncoding: "iso-8859-1", altText: ticket.uniqueCode },
    ]);
    const reply = await browserClient(server.url).postJson("/api/ticket", {
      bookingId: ticket.bookingId,
      t: ticket.token,
    });
    expect(reply.status).toBe(200);
    const { qrCodeImage } = (await reply.json()) as { qrCodeImage: string };
    expect(qrCodeImage).toBe(await QRCode.toDataURL(door, { errorCorrectionLevel: "M", margin: 2, width: 320 }));
  });

  it("says NOT VALID with the reason once refunded, voided and without a QR; a moved event's pass has the new time", async () => {
    const { db } = server.deps;
    const ticket = await paidTicket(server, { event: { name: "Wine Night" } });
    const moved = Date.now() + 12 * DAY;
    db.update(events).set({ startsAt: moved, doorsOpenAt: null }).where(eq(events.id, ticket.eventId)).run();
    const movedPass = passJson.parse(passJsonOf(await download(ticket.bookingId, ticket.token)));
    expect(fieldsOf(movedPass).starts?.value).toBe(formatVenueTime(moved, "Australia/Sydney"));
    expect(movedPass.semantics.eventStartDate).toBe(new Date(moved).toISOString());
    expect(movedPass.barcodes).toHaveLength(1);

    db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, ticket.bookingId)).run();
    const refunded = passJson.parse(passJsonOf(await download(ticket.bookingId, ticket.token)));
    expect(refunded.voided).toBe(true);
    expect(refunded.eventTicket.headerFields).toEqual([{ key: "status", label: "NOT VALID", value: "Refunded" }]);
    expect(refunded.eventTicket.primaryFields[0]).toMatchObject({ label: "NOT VALID", value: "Wine Night" });
    expect(refunded.barcodes).toBeUndefined();
    // Its serial stays, so the phone replaces the pass it holds.
    expect(refunded.serialNumber).toBe(movedPass.serialNumber);

    db.update(bookings).set({ status: "cancelled" }).where(eq(bookings.id, ticket.bookingId)).run();
    const cancelled = passJsonOf(await download(ticket.bookingId, ticket.token));
    expect(cancelled.eventTicket.headerFields[0]?.value).toBe("Booking cancelled");
  });

  it("carries no phone number, no email address but the organiser's, and nothing about another guest", async () => {
    const { db, env } = server.deps;
    const ticket = await paidTicket(server, { name: "Mina Okafor" });
    const other = await paidTicket(server, { eventId: ticket.eventId, name: "Zeb Quill" });
    const guest = db.select().from(bookings).where(eq(bookings.id, ticket.bookingId)).get()!;
    const files = await download(ticket.bookingId, ticket.token);
    const text = Object.values(files)
      .map((bytes) => Buffer.from(bytes).toString("latin1"))
      .join("\n");
    for (const phone of [ticket.phone, other.phone]) {
      expect(text).not.toContain(phone);
      expect(text).not.toContain(`0${phone.slice(3)}`);
      expect(text).not.toContain(phone.slice(3));
    }
    const emails = strFromU8(files["pass.json"]!).match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? [];
    expect(new Set(emails)).toEqual(new Set([env.SUPPORT_EMAIL]));
    expect(text).not.toContain("Zeb Quill");
    expect(text).not.toContain(other.uniqueCode);
    expect(text).not.toContain(`userID=${other.userId}`);
    expect(text).not.toContain(guest.phone);
    // Nor the ticket link: it is a capability, and a pass is shown to whoever holds the phone.
    expect(text).not.toContain(ticket.token);
    expect(text).not.toContain("/tickets?");
  });
});

describe("who may download it", () => {
  it("takes the ticket link's token or the owner's /me session; refuses the rest with 403 invalid_link", async () => {
    const ticket = await paidTicket(server);
    const other = await paidTicket(server);
    const status = async (path: string, client = browserClient(server.url)) => {
      const response = await client.get(path);
      if (response.status !== 200) {
        const body = (await response.json()) as { code: string };
        return `${response.status} ${body.code}`;
      }
      await response.arrayBuffer();
      return "200";
    };
    expect(await status(passUrl(ticket.bookingId))).toBe("403 invalid_link");
    expect(await status(passUrl(ticket.bookingId, "not-the-token"))).toBe("403 invalid_link");
    expect(await status(passUrl(ticket.bookingId, other.token))).toBe("403 invalid_link");
    expect(await status(passUrl(ticket.bookingId, ticket.token))).toBe("200");
    expect(await status(passUrl(ticket.bookingId), guestBrowser(server, ticket.phone))).toBe("200");
    expect(await status(passUrl(ticket.bookingId), guestBrowser(server, other.phone))).toBe("403 invalid_link");
    // An unknown booking is refused alike: the token is checked before anything is read.
    expect(await status(passUrl(987_654, ticket.token))).toBe("403 invalid_link");
    expect(await status(passUrl(987_654), guestBrowser(server, ticket.phone))).toBe("403 invalid_link");
  });

  it("answers an unpaid booking 409 and an erased event 410, as the ticket link does", async () => {
    const { db } = server.deps;
    const unpaid = await paidTicket(server);
    db.update(bookings).set({ status: "held", uniqueCode: null }).where(eq(bookings.id, unpaid.bookingId)).run();
    const held = await browserClient(server.url).get(passUrl(unpaid.bookingId, unpaid.token));
    expect([held.status, ((await held.json()) as { code: string }).code]).toEqual([409, "not_paid"]);
    const erased = await paidTicket(server);
    db.update(events).set({ personalDataErasedAt: Date.now() }).where(eq(events.id, erased.eventId)).run();
    const gone = await browserClient(server.url).get(passUrl(erased.bookingId, erased.token));
    expect([gone.status, ((await gone.json()) as { code: string }).code]).toEqual([410, "gone"]);
    for (const bookingId of [unpaid.bookingId, erased.bookingId])
      expect(db.select().from(walletPasses).where(eq(walletPasses.bookingId, bookingId)).get()).toBeUndefined();
  });

  it("gives a paid booking without its door code yet the code first, as the ticket link does", async () => {
    const { db } = server.deps;
    const ticket = await paidTicket(server);
    db.update(bookings).set({ uniqueCode: null }).where(eq(bookings.id, ticket.bookingId)).run();
    const pass = passJsonOf(await download(ticket.bookingId, ticket.token));
    const code = db.select().from(bookings).where(eq(bookings.id, ticket.bookingId)).get()?.uniqueCode;
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
    expect(fieldsOf(pass).code?.value).toBe(code);
  });

  it("is a 404 where Apple Wallet is not configured, and makes nothing", async () => {
    await withTestServer(async (plain: TestServer) => {
      const ticket = await paidTicket(plain);
      const response = await browserClient(plain.url).get(passUrl(ticket.bookingId, ticket.token));
      expect(response.status).toBe(404);
      expect(((await response.json()) as { code: string }).code).toBe("not_found");
      expect(plain.deps.db.select().from(walletPasses).all()).toEqual([]);
    });
  });
});

describe("the Apple settings", () => {
  const base = { DATABASE_PATH: join(keys.dir, "env.db"), SESSION_SECRET: "s".repeat(40) };

  it("reads the keys the environment names, the certificate's expiry with them", () => {
    const apple = loadWalletKeys(parseEnv({ ...base, ...keys.env })).apple;
    expect(apple).toMatchObject({ passTypeId: keys.passTypeId, teamId: keys.teamId });
    expect(apple!.certificateExpiresAt).toBeGreaterThan(Date.now() + 300 * DAY);
  });

  it("stops with a WalletKeyError naming the setting whose file cannot be read or opened", () => {
    const load = (env: Record<string, string>) => () => loadWalletKeys(parseEnv({ ...base, ...keys.env, ...env }));
    expect(load({ APPLE_PASS_KEY: join(keys.dir, "missing.key") })).toThrow(WalletKeyError);
    expect(load({ APPLE_PASS_KEY: join(keys.dir, "missing.key") })).toThrow(/^APPLE_PASS_KEY: cannot read/);
    expect(load({ APPLE_WWDR_CERT: join(keys.dir, "missing.pem") })).toThrow(/^APPLE_WWDR_CERT: /);
    expect(load({ APPLE_PASS_KEY_PASSPHRASE: "wrong passphrase" })).toThrow(/APPLE_PASS_KEY_PASSPHRASE/);
    expect(load({ APPLE_PASS_CERT: join(keys.dir, "pass.key") })).toThrow(/APPLE_PASS_CERT/);
  });
});
