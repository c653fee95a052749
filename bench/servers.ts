import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createApp } from "../api/app.ts";
import { storeImage } from "../api/booking/images.ts";
import { createAppDeps } from "../api/deps.ts";
import { parseEnv } from "../api/env.ts";
import { serveApp } from "../api/lib/listen.ts";
import { silentLogger } from "../api/lib/log.ts";
import { openDatabase } from "../db/client.ts";
import { seedDemoEvents } from "../db/seed.ts";

// A child process for the benchmark: the real app (seeded like `npm start`) and a bare node:http
// server answering every request with the very bytes the app sends for GET /api/get-events.
// It prints one JSON line with both ports, then serves until killed.

const dir = mkdtempSync(join(tmpdir(), "sdt-bench-"));
const env = parseEnv({
  NODE_ENV: "test",
  DATABASE_PATH: join(dir, "app.db"),
  UPLOADS_DIR: join(dir, "uploads"),
  ADMIN_PASSWORD: "bench-password",
  SESSION_SECRET: "bench-secret-bench-secret-bench-secret-00",
});
const db = openDatabase(env.DATABASE_PATH);
await seedDemoEvents(db, (bytes) => storeImage(env.UPLOADS_DIR, bytes));
const now = () => Date.now();
const deps = createAppDeps({ db, env, log: silentLogger, now });
const staticDir = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
// Replies are served as in production: unchecked (the test-time check parses each reply with its schema).
const app = createApp({ ...deps, staticDir, checkReplies: false });

const appServer = serveApp({
  fetch: app.fetch,
  port: 0,
  hostname: "127.0.0.1",
  // Every simulated phone connects from this machine's one address: the per-address cap is the
  // proxy's job in this measurement, not the app's.
  limits: { maxConnectionsPerAddress: Number.POSITIVE_INFINITY },
});
await new Promise((r) => appServer.once("listening", r));
const appPort = (appServer.address() as AddressInfo).port;
env.PUBLIC_BASE_URL = `http://127.0.0.1:${appPort}`;

const reference = await fetch(`http://127.0.0.1:${appPort}/api/get-events`);
const body = Buffer.from(await reference.arrayBuffer());
const bare = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  res.end(body);
});
await new Promise<void>((r) => bare.listen(0, "127.0.0.1", r));
const barePort = (bare.address() as AddressInfo).port;

console.log(JSON.stringify({ appPort, barePort, bytes: body.length, dir }));
