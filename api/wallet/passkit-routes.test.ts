import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { walletRegistrations } from "../../db/wallet-schema.ts";
import { suiteTestServer, type TestServer } from "../../test/api-harness.ts";
import { paidTicket } from "../../test/suites/wallet.ts";
import { walletUpdatesSuite } from "../../test/suites/wallet-updates.ts";
import { walletPassesChanged } from "./pass-changes.ts";
import { ensureWalletPass, passAuthToken } from "./pass-facts.ts";

// Apple's PassKit web service as Apple's devices call it (issue 50; docs/decisions/055-wallet-updates.md).

const { world, server } = walletUpdatesSuite();

let deviceCount = 0;
const newDevice = () => `device${++deviceCount}${Date.now().toString(16)}`;
const newPushToken = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex");

/** A paid ticket given as an Apple pass: its serial and the token its pass carries. */
async function applePass(s: TestServer, name = "Asha Rao") {
  const ticket = await paidTicket(s, { name });
  const pass = ensureWalletPass(s.deps.db, ticket.bookingId, "apple", s.deps.now());
  return { ...ticket, serial: pass.serialNumber, auth: `ApplePass ${passAuthToken(s.deps.env, pass.serialNumber)}` };
}

function device(s: TestServer) {
  const passType = () => world.keys.passTypeId;
  const registration = (deviceId: string, serial: string, type = passType()) =>
    `${s.url}/api/passkit/v1/devices/${deviceId}/registrations/${type}/${serial}`;
  return {
    register: (deviceId: string, serial: string, auth: string | null, pushToken = newPushToken(), type?: string) =>
      fetch(registration(deviceId, serial, type), {
        method: "POST",
        headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ pushToken }),
      }),
    unregister: (deviceId: string, serial: string, auth: string | null) =>
      fetch(registration(deviceId, serial), { method: "DELETE", headers: auth ? { authorization: auth } : {} }),
    changed: (deviceId: string, since?: string, type = passType()) =>
      fetch(
        `${s.url}/api/passkit/v1/devices/${deviceId}/registrations/${type}${since === undefined ? "" : `?passesUpdatedSince=${since}`}`,
      ),
    latest: (serial: string, auth: string | null, headers: Record<string, string> = {}) =>
      fetch(`${s.url}/api/passkit/v1/passes/${passType()}/${serial}`, {
        headers: { ...(auth ? { authorization: auth } : {}), ...headers },
      }),
    log: (logs: unknown) =>
      fetch(`${s.url}/api/passkit/v1/log`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ logs }),
      }),
  };
}

const passJsonOf = async (response: Response) => {
  const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
  return JSON.parse(Buffer.from(files["pass.json"]!).toString("utf8")) as Record<string, unknown>;
};

describe("the PassKit web service", () => {
  it("refuses every call about a pass without its own token (401), whatever else the request holds", async () => {
    const phone = device(server);
    const mine = await applePass(server);
    const other = await applePass(server, "Ben Ito");
    const d = newDevice();
    for (const auth of [
      null,
      "ApplePass wrong-token-wrong-token",
      other.auth,
      mine.auth.replace("ApplePass", "Bearer"),
    ]) {
      expect((await phone.register(d, mine.serial, auth)).status).toBe(401);
      expect((await phone.unregister(d, mine.serial, auth)).status).toBe(401);
      expect((await phone.latest(mine.serial, auth)).status).toBe(401);
    }
    // Before the body is read: a body that is not even JSON is still a 401.
    const garbled = await fetch(
      `${server.url}/api/passkit/v1/devices/${d}/registrations/${world.keys.passTypeId}/${mine.serial}`,
      { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" },
    );
    expect(garbled.status).toBe(401);
    expect(server.deps.db.select().from(walletRegistrations).all()).toEqual([]);
  });

  it("registers a device (201), then again with a new push token (200), and unregisters it", async () => {
    const phone = device(server);
    const pass = await applePass(server);
    const d = newDevice();
    const first = newPushToken();
    expect((await phone.register(d, pass.serial, pass.auth, first)).status).toBe(201);
    const second = newPushToken();
    const again = await phone.register(d, pass.serial, pass.auth, second);
    expect(again.status).toBe(200);
    const rows = server.deps.db
      .select()
      .from(walletRegistrations)
      .where(eq(walletRegistrations.serialNumber, pass.serial))
      .all();
    expect(rows.map((r) => [r.deviceLibraryId, r.pushToken])).toEqual([[d, second]]);
    expect((await phone.unregister(d, pass.serial, pass.auth)).status).toBe(200);
    expect(
      server.deps.db.select().from(walletRegistrations).where(eq(walletRegistrations.serialNumber, pass.serial)).all(),
    ).toEqual([]);
    // Unregistering what is not registered is still 200.
    expect((await phone.unregister(d, pass.serial, pass.auth)).status).toBe(200);
  });

  it("lists the device's passes changed since a tag, 204 when none, and never another device's", async () => {
    const phone = device(server);
    const a = await applePass(server);
    const b = await applePass(server, "Cleo Park");
    const d = newDevice();
    const elsewhere = newDevice();
    expect((await phone.register(d, a.serial, a.auth)).status).toBe(201);
    expect((await phone.register(d, b.serial, b.auth)).status).toBe(201);
    const c = await applePass(server, "Dev Shah");
    expect((await phone.register(elsewhere, c.serial, c.auth)).status).toBe(201);

    const all = await phone.changed(d);
    expect(all.status).toBe(200);
    const listed = (await all.json()) as { serialNumbers: string[]; lastUpdated: string };
    expect(listed.serialNumbers.sort()).toEqual([a.serial, b.serial].sort());
    expect(listed.lastUpdated).toMatch(/^\d+$/);
    expect((await phone.changed(d, listed.lastUpdated)).status).toBe(204);

    const tag = walletPassesChanged(server.deps.db, server.deps, [b.bookingId], server.deps.now());
    const since = await phone.changed(d, listed.lastUpdated);
    expect(since.status).toBe(200);
    expect(await since.json()).toEqual({ serialNumbers: [b.serial], lastUpdated: String(tag) });
    expect((await phone.changed(d, String(tag))).status).toBe(204);
    expect((await phone.changed(newDevice())).status).toBe(204);
    // Another pass type is not ours.
    expect((await phone.changed(d, undefined, "pass.com.example.other")).status).toBe(404);
  });

  it("sends the latest pass with Last-Modified, 304 when the device's copy is not older, and the new one after a change", async () => {
    const phone = device(server);
    const pass = await applePass(server);
    const first = await phone.latest(pass.serial, pass.auth);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
    const lastModified = first.headers.get("last-modified")!;
    expect(Date.parse(lastModified)).toBeGreaterThan(0);
    const json = await passJsonOf(first);
    expect(json.serialNumber).toBe(pass.serial);
    expect(json.voided).toBeUndefined();

    const unchanged = await phone.latest(pass.serial, pass.auth, { "if-modified-since": lastModified });
    expect(unchanged.status).toBe(304);
    expect((await unchanged.arrayBuffer()).byteLength).toBe(0);

    // A second later the ticket is refunded: the device's copy is older, and the new one says so.
    server.advance(2000);
    server.deps.db.$client.prepare("update bookings set status = 'refunded' where id = ?").run(pass.bookingId);
    walletPassesChanged(server.deps.db, server.deps, [pass.bookingId], server.deps.now());
    const changed = await phone.latest(pass.serial, pass.auth, { "if-modified-since": lastModified });
    expect(changed.status).toBe(200);
    expect(Date.parse(changed.headers.get("last-modified")!)).toBeGreaterThan(Date.parse(lastModified));
    const after = await passJsonOf(changed);
    expect(after.voided).toBe(true);
    expect(JSON.stringify(after)).toContain("NOT VALID");
    expect(JSON.stringify(after)).not.toContain(pass.phone);
  });

  it("takes the device's log (200), logging at most 20 trimmed lines at level warn", async () => {
    const lines: string[] = [];
    const log = server.deps.log;
    const phone = device(server);
    // The suite's logger is the server's own; its warn lines are read through a wrapper here.
    (server.deps as { log: typeof log }).log = (level, message, fields) => {
      if (message === "Apple Wallet device log") lines.push(`${level} ${String(fields?.line)}`);
      log(level, message, fields);
    };
    try {
      const response = await phone.log([
        "  Web service error for pass.au.example.speeddating (https://example.test/api/passkit): \n 500  ",
        ...Array.from({ length: 30 }, (_, i) => `line ${i}`),
      ]);
      expect(response.status).toBe(200);
    } finally {
      (server.deps as { log: typeof log }).log = log;
    }
    expect(lines).toHaveLength(20);
    expect(lines[0]).toBe(
      "warn Web service error for pass.au.example.speeddating (https://example.test/api/passkit): 500",
    );
    expect((await phone.log("not a list")).status).toBe(400);
  });

  it("answers 400 to ids that are not ids, never a 5xx", async () => {
    const phone = device(server);
    const pass = await applePass(server);
    const bad = ["a%2Fb", "x".repeat(300), "semi%3Bcolon", "%F0%9F%92%94"];
    for (const id of bad) {
      expect((await phone.changed(id)).status).toBe(400);
      expect((await phone.register(id, pass.serial, pass.auth)).status).toBe(400);
    }
    expect((await phone.changed(newDevice(), "yesterday")).status).toBe(400);
    expect((await phone.register(newDevice(), pass.serial, pass.auth, "not a token!")).status).toBe(400);
    expect((await phone.register(newDevice(), pass.serial, pass.auth, newPushToken(), "bad type!")).status).toBe(400);
    expect((await phone.register(newDevice(), pass.serial, pass.auth, newPushToken(), "pass.com.other")).status).toBe(
      404,
    );
  });
});

describe("the PassKit web service without Apple Wallet configured", () => {
  const bare = suiteTestServer();
  it("answers 404 to a device whose token is right, and 401 to one whose token is not", async () => {
    const ticket = await paidTicket(bare);
    const pass = ensureWalletPass(bare.deps.db, ticket.bookingId, "apple", bare.deps.now());
    const auth = `ApplePass ${passAuthToken(bare.deps.env, pass.serialNumber)}`;
    const phone = device(bare);
    expect((await phone.register(newDevice(), pass.serialNumber, auth)).status).toBe(404);
    expect((await phone.latest(pass.serialNumber, auth)).status).toBe(404);
    expect((await phone.latest(pass.serialNumber, null)).status).toBe(401);
    expect((await phone.changed(newDevice())).status).toBe(404);
    expect((await phone.log(["x"])).status).toBe(404);
  });
});
