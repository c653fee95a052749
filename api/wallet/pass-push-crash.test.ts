import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "../../db/client.ts";
import { bookings, outboxMessages } from "../../db/schema.ts";
import { walletRegistrations } from "../../db/wallet-schema.ts";
import { browserClient } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { startWalletWorld, type WalletWorld, walletEnv } from "../../test/suites/wallet-updates.ts";
import { parseEnv } from "../env.ts";
import { loadWalletKeys } from "./keys.ts";
import { walletPassesChanged } from "./pass-changes.ts";
import { ensureWalletPass } from "./pass-facts.ts";

// At least once, and once is what a device sees (issue 50; docs/decisions/055-wallet-updates.md): a
// real server process (api/server.ts, as `npm run dev` runs it) is killed with SIGKILL while APNs
// holds its pushes unanswered, and a second change is committed while no server runs. Started again
// on the same file, the server sends the never-sent push and, their lease run out, the interrupted
// ones: each device ends with exactly one push answered, and nothing more comes after.

const root = join(import.meta.dirname, "..", "..");
const PASSWORD = "crash test organiser password";
const SECRET = "wallet-crash-secret-wallet-crash-secret-0";

let world: WalletWorld;
let dir: string;
let child: ChildProcess | undefined;
const logs: string[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function baseEnv(port: number) {
  return {
    NODE_ENV: "development",
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_PATH: join(dir, "app.db"),
    UPLOADS_DIR: join(dir, "uploads"),
    ADMIN_PASSWORD: PASSWORD,
    SESSION_SECRET: SECRET,
    SEED_DEMO: "0",
    ...walletEnv(world),
  };
}

/** The server as a process of its own, trusting the local APNs' CA as Node trusts extra roots. */
async function startServer(port: number) {
  const started = spawn(process.execPath, ["--import", "tsx", "api/server.ts"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_EXTRA_CA_CERTS: world.apns.caPath,
      ...baseEnv(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = started;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join("")}`)), 90_000);
    started.stdout?.on("data", (chunk: Buffer) => {
      logs.push(chunk.toString());
      if (chunk.toString().includes("listening on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    started.stderr?.on("data", (chunk: Buffer) => logs.push(chunk.toString()));
    started.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${logs.join("")}`));
    });
  });
  return started;
}

const killed = (process: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (process.exitCode !== null || process.signalCode !== null) return resolve();
    process.once("exit", () => resolve());
    process.kill(signal);
  });

async function until(what: string, done: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${logs.join("").slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  world = await startWalletWorld();
  dir = mkdtempSync(join(tmpdir(), "sdt-wallet-crash-"));
});

afterAll(async () => {
  if (child) await killed(child, "SIGKILL");
  await world?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("sends each device its push once across a kill -9: the unsent one and, their lease run out, the interrupted ones", {
  timeout: 120_000,
}, async () => {
  const port = await freePort();
  // The file the server will run on, set up as a night with two tickets already in wallets.
  const db = openDatabase(join(dir, "app.db"));
  const event = await insertEvent(db, join(dir, "uploads"), { name: "Crash Wallet Night" });
  const [a, b] = insertPaidBookings(db, event.id, 2);
  const now = Date.now();
  const devices: Record<string, string[]> = {};
  for (const [i, booking] of [a!, b!].entries()) {
    db.update(bookings)
      .set({ uniqueCode: `CRASHCODE${i}`, paymentIntentId: `pi_local_crash_${booking.bookingId}` })
      .where(eq(bookings.id, booking.bookingId))
      .run();
    const pass = ensureWalletPass(db, booking.bookingId, "apple", now);
    devices[booking.bookingId] = Array.from({ length: i === 0 ? 2 : 1 }, (_, n) => `${"ab".repeat(30)}${i}${n}00`);
    for (const [n, pushToken] of devices[booking.bookingId]!.entries())
      db.insert(walletRegistrations)
        .values({ deviceLibraryId: `crash-device-${i}-${n}`, serialNumber: pass.serialNumber, pushToken })
        .run();
  }
  const aTokens = devices[a!.bookingId]!;
  const bTokens = devices[b!.bookingId]!;

  // 1. The organiser refunds A's ticket on a running server; APNs takes the pushes and never answers.
  world.apns.hold = true;
  let server = await startServer(port);
  const organiser = browserClient(`http://127.0.0.1:${port}`);
  expect((await organiser.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
  expect((await organiser.postJson("/api/refund", { paymentIntentId: `pi_local_crash_${a!.bookingId}` })).status).toBe(
    200,
  );
  await world.apns.waitFor(2, 30_000);
  await killed(server, "SIGKILL");
  expect(world.apns.delivered()).toEqual([]);
  const claimed = db.select().from(outboxMessages).where(eq(outboxMessages.channel, "apns")).all();
  expect(claimed.map((m) => [m.status, m.attempts])).toEqual([
    ["pending", 1],
    ["pending", 1],
  ]);

  // 2. While no server runs, B's ticket changes in a transaction that commits (as a refund's would):
  //    its push is queued and was never sent.
  const env = parseEnv(baseEnv(port));
  db.transaction((tx) => {
    tx.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, b!.bookingId)).run();
    walletPassesChanged(tx, { env, wallet: loadWalletKeys(env) }, [b!.bookingId], Date.now());
  });

  // 3. A's pushes are leased for a minute from their claim; the test moves their clock past it
  //    instead of waiting the minute out (the lease itself is the outbox's own test's).
  const restartAt = Date.now();
  for (const m of claimed) {
    expect(m.nextAttemptAt, "leased into the future").toBeGreaterThan(restartAt);
    db.update(outboxMessages)
      .set({ nextAttemptAt: restartAt - 1 })
      .where(eq(outboxMessages.id, m.id))
      .run();
  }

  // 4. Restarted, with APNs answering again: B's push and A's, each once.
  world.apns.hold = false;
  server = await startServer(port);
  const deliveredTo = (token: string) => world.apns.delivered().filter((p) => p.token === token).length;
  await until("B's push", () => bTokens.every((t) => deliveredTo(t) === 1), 60_000);
  await until("A's pushes after their lease", () => aTokens.every((t) => deliveredTo(t) === 1), 60_000);
  // Another tick or two: nothing more is sent.
  await new Promise((r) => setTimeout(r, 2_000));
  for (const token of [...aTokens, ...bTokens]) expect(deliveredTo(token), token).toBe(1);
  const rows = db.select().from(outboxMessages).where(eq(outboxMessages.channel, "apns")).all();
  expect(rows.map((m) => m.status)).toEqual(["sent", "sent", "sent"]);
  for (const push of world.apns.pushes) expect(push.body).toBe("{}");
  await killed(server, "SIGTERM");
  db.$client.close();
});
