import { existsSync } from "node:fs";
import type { Server, ServerResponse } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "../db/client.ts";
import { seedDemoEvents } from "../db/seed.ts";
import { checkpointAndClose } from "../db/sqlite.ts";
import { createApp } from "./app.ts";
import { giveBackSeatsWithoutPhoto } from "./booking/holds.ts";
import { storeImage } from "./booking/images.ts";
import { photoJobsOf } from "./booking/photo-jobs.ts";
import { createAppDeps } from "./deps.ts";
import { readEnvOrExit } from "./env.ts";
import { MAX_CONNECTIONS_PER_ADDRESS, serveApp } from "./lib/listen.ts";
import { jsonLogger } from "./lib/log.ts";
import { proxyTrust } from "./lib/trust-proxy.ts";
import { closeRoomStreams } from "./night/room-events.ts";
import { backgroundJobs } from "./ops/jobs.ts";
import { createScheduler } from "./ops/scheduler.ts";
import { WalletKeyError } from "./wallet/keys.ts";

// The only file that listens. Everything it wires up is built by createApp from these pieces.

const env = readEnvOrExit();

const log = jsonLogger;
const now = () => Date.now();
const db = openDatabase(env.DATABASE_PATH, { timeZone: env.EVENT_TIME_ZONE });
if (env.SEED_DEMO === "1") {
  const added = await seedDemoEvents(db, (bytes) => storeImage(env.UPLOADS_DIR, bytes));
  if (added > 0) log("info", `seeded ${added} demo events`);
}
// Seats a crash left waiting for their photo go back before anyone asks (holds.ts).
const givenBack = giveBackSeatsWithoutPhoto(db, now());
if (givenBack > 0) log("info", `gave back ${givenBack} seats whose photo never came`);
const deps = createDepsOrExit();
const { sms, mail, payments } = deps;

/** The deps, or one `Configuration error:` line and exit 1 when a wallet key file cannot be read (api/wallet/keys.ts). */
function createDepsOrExit() {
  try {
    return createAppDeps({ db, env, log, now });
  } catch (error) {
    if (!(error instanceof WalletKeyError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
}

const staticDir = env.STATIC_DIR ?? join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
if (!existsSync(join(staticDir, "index.html"))) {
  log("warn", "no built PWA in dist/: run `npm run build` (npm start does) to serve the app");
}

const app = createApp({ ...deps, staticDir });

// Slow requests and connections per address (api/lib/listen.ts). The proxy TRUST_PROXY names carries
// every client on one address, so it is not capped here: it limits per client itself (README).
const proxies = proxyTrust(env.TRUST_PROXY);
const refusalsLogged = new Map<string, number>();
const onRefused = (address: string) => {
  const at = now();
  if ((refusalsLogged.get(address) ?? 0) > at - 60_000) return;
  if (refusalsLogged.size >= 1000) refusalsLogged.clear();
  refusalsLogged.set(address, at);
  log("warn", "refused connections over the per-address cap", { address, cap: MAX_CONNECTIONS_PER_ADDRESS });
};
const limits = { uncapped: (address: string) => proxies.trustsPeer(address), onRefused };
const server = serveApp({ fetch: app.fetch, port: env.PORT, limits }, (info) => {
  log("info", `listening on ${env.PUBLIC_BASE_URL} (port ${info.port})`, {
    payments: payments.name,
    sms: sms.name,
    mail: env.EMAIL === "off" ? "off" : mail.name,
  });
  if (env.adminPasswordIsDefault) {
    log("info", `admin password (development default, set ADMIN_PASSWORD to change): ${env.ADMIN_PASSWORD}`);
  }
});

// Reminders, SMS retries and the rest: one loop, stopped before the database closes.
const scheduler = createScheduler({ log, now }, backgroundJobs(deps));
scheduler.start();

// Graceful shutdown (docs/decisions/006-operations.md). Responses still being worked on are tracked
// so that, once closing, each is sent with `Connection: close` and its keep-alive socket ends with
// it; otherwise an idle browser connection would hold the process for the keep-alive timeout.
const http1 = server as Server;
const inFlight = new Set<ServerResponse>();
let closing = false;
http1.on("request", (_request, response: ServerResponse) => {
  if (closing && !response.headersSent) response.setHeader("connection", "close");
  inFlight.add(response);
  response.once("close", () => inFlight.delete(response));
});

const shutdown = async (signal: NodeJS.Signals) => {
  if (closing) return;
  closing = true;
  const started = Date.now();
  for (const response of inFlight) if (!response.headersSent) response.setHeader("connection", "close");
  // The room's streams never finish by themselves: end them, and the phones reconnect to the next server.
  closeRoomStreams(db);
  // No new connections from here on; idle keep-alive sockets close now, busy ones after their answer.
  const drained = new Promise<boolean>((resolve) => http1.close(() => resolve(true)));
  http1.closeIdleConnections();
  let graceTimer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<boolean>((resolve) => {
    graceTimer = setTimeout(() => resolve(false), env.SHUTDOWN_GRACE_SECONDS * 1000);
  });
  // The scheduler's current run (a backup, an SMS send) finishes meanwhile; no new one starts.
  const [finished] = await Promise.all([Promise.race([drained, graceOver]), scheduler.stop()]);
  clearTimeout(graceTimer);
  const cut = finished ? 0 : inFlight.size;
  if (!finished) http1.closeAllConnections();
  // Photos of seats already answered are stored after the reply (save-details.ts): they finish within the
  // grace, and only a seat whose photo did not (or whose upload was cut off) is given back below.
  const photos = photoJobsOf(db);
  if (photos.pending > 0) {
    const left = Math.max(1000, env.SHUTDOWN_GRACE_SECONDS * 1000 - (Date.now() - started));
    await Promise.race([photos.idle(), new Promise((resolve) => setTimeout(resolve, left).unref())]);
  }
  let exitCode = 0;
  try {
    // A cut-off save's seat, held before its photo came, is free again (holds.ts).
    giveBackSeatsWithoutPhoto(db, now());
    checkpointAndClose(db);
  } catch (error) {
    exitCode = 1;
    log("error", "closing the database failed", { error: String(error) });
  }
  log("info", `shut down on ${signal}`, { ms: Date.now() - started, requestsCut: cut });
  process.exit(exitCode);
};
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
