import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../api/app.ts";
import { photoJobsOf } from "../api/booking/photo-jobs.ts";
import { createAppDeps } from "../api/deps.ts";
import { parseEnv } from "../api/env.ts";
import { serveApp } from "../api/lib/listen.ts";
import { silentLogger } from "../api/lib/log.ts";
import { openDatabase } from "../db/client.ts";
import { insertEvent } from "../test/fixtures.ts";

// A child process for the release run of the benchmark (bench/release.ts): the real app on a new
// database holding one balanced 40-seat event. Every buyer comes from this machine's one address, so
// the per-address limit is raised as an operator would for a venue. Prints one JSON line, then serves
// until killed.

const RELEASE_SECRET = "bench-secret-bench-secret-bench-secret-00";

const dir = mkdtempSync(join(tmpdir(), "sdt-bench-release-"));
const env = parseEnv({
  NODE_ENV: "test",
  DATABASE_PATH: join(dir, "app.db"),
  UPLOADS_DIR: join(dir, "uploads"),
  ADMIN_PASSWORD: "bench-password",
  SESSION_SECRET: RELEASE_SECRET,
  OTP_MAX_PER_ADDRESS: "1000000",
});
const db = openDatabase(env.DATABASE_PATH);
const event = await insertEvent(db, env.UPLOADS_DIR, {
  name: "Release Night",
  totalSeats: 40,
  seatsMale: 20,
  seatsFemale: 20,
});
const now = () => Date.now();
const deps = createAppDeps({ db, env, log: silentLogger, now });
// As production serves replies: unchecked.
const app = createApp({ ...deps, checkReplies: false });
// Served as api/server.ts serves it (the listen backlog matters in a rush).
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
console.log(JSON.stringify({ port, eventId: event.id, eventName: event.name, dir }));
// Asked on stdin once the rush is answered: waits until every winner's photo is stored (a first save is
// answered before its photo is processed), then says so on stdout.
process.stdin.on("data", async () => {
  await photoJobsOf(db).idle();
  console.log(JSON.stringify({ photosStored: true }));
});
