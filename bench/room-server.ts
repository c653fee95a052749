import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { createApp } from "../api/app.ts";
import { createAppDeps } from "../api/deps.ts";
import { parseEnv } from "../api/env.ts";
import { feedbackToken } from "../api/lib/capability.ts";
import { serveApp } from "../api/lib/listen.ts";
import { silentLogger } from "../api/lib/log.ts";
import { roomSubscribers } from "../api/night/room-events.ts";
import { planEventRounds, runRounds } from "../api/night/rounds.ts";
import { openDatabase } from "../db/client.ts";
import { bookings } from "../db/schema.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";

// A child process for the room's fan-out (bench/room.ts): the real app, one started event with
// PHONES guests checked in and its rounds running, no break between rounds so each Next is a new
// round. It prints one JSON line (port, event, each guest's link), then serves until killed, and
// answers "mem" over IPC with its memory after a garbage collection and the stream's listener count.

const PHONES = Number(process.env.BENCH_ROOM_PHONES ?? 200);
export const ROOM_PASSWORD = "bench-password";

const dir = mkdtempSync(join(tmpdir(), "sdt-bench-room-"));
const env = parseEnv({
  NODE_ENV: "test",
  DATABASE_PATH: join(dir, "app.db"),
  UPLOADS_DIR: join(dir, "uploads"),
  ADMIN_PASSWORD: ROOM_PASSWORD,
  SESSION_SECRET: "bench-secret-bench-secret-bench-secret-00",
});
const db = openDatabase(env.DATABASE_PATH);
const now = () => Date.now();
const event = await insertEvent(db, env.UPLOADS_DIR, {
  name: "Room Bench Night",
  status: "started",
  totalSeats: PHONES,
  startsAt: now() - 10 * 60_000,
  startedAt: now() - 5 * 60_000,
});
const guests = [
  ...insertPaidBookings(db, event.id, PHONES / 2, { gender: "female" }),
  ...insertPaidBookings(db, event.id, PHONES / 2, { gender: "male" }),
];
for (const g of guests) db.update(bookings).set({ checkedInAt: now() }).where(eq(bookings.id, g.bookingId)).run();
// Long rounds, so the clock never moves by itself during the measure; no breaks, so every Next is a round.
planEventRounds(db, { eventId: event.id, roundMinutes: 30, breakMinutes: 0, maxRounds: 100 }, now());
runRounds(db, { eventId: event.id, action: "start", shown: {} }, now());

const deps = createAppDeps({ db, env, log: silentLogger, now });
const app = createApp({ ...deps, checkReplies: false });
const server = serveApp({
  fetch: app.fetch,
  port: 0,
  hostname: "127.0.0.1",
  // Every simulated phone connects from this machine's one address: the per-address cap is the
  // proxy's job in this measurement, not the app's.
  limits: { maxConnectionsPerAddress: Number.POSITIVE_INFINITY },
});
await new Promise((r) => server.once("listening", r));
const port = (server.address() as AddressInfo).port;
// The cross-site check compares a POST's Origin with this.
env.PUBLIC_BASE_URL = `http://127.0.0.1:${port}`;

process.on("message", (message) => {
  if (message !== "mem") return;
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.send?.({ rss, heapUsed, subscribers: roomSubscribers(db, event.id) });
});
process.on("disconnect", () => process.exit(0));

console.log(
  JSON.stringify({
    port,
    eventId: event.id,
    dir,
    guests: guests.map((g) => ({ userId: g.userId, token: feedbackToken(env, "start", g.userId, event.id) })),
  }),
);
