import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { openDatabase } from "../db/client.ts";
import { seedDemoEvents } from "../db/seed.ts";
import { createApp } from "./app.ts";
import { EnvError, readEnv } from "./env.ts";
import { jsonLogger } from "./lib/log.ts";
import { createPaymentsProvider } from "./providers/payments/index.ts";
import { createSmsProvider } from "./providers/sms/index.ts";
import { deliverPending } from "./services/outbox.ts";

// The only file that listens. Everything it wires up is built by createApp from these pieces.

let env: ReturnType<typeof readEnv>;
try {
  env = readEnv();
} catch (error) {
  if (error instanceof EnvError) {
    for (const line of error.problems) console.error(`Configuration error: ${line}`);
    process.exit(1);
  }
  throw error;
}

const log = jsonLogger;
const now = () => Date.now();
const db = openDatabase(env.DATABASE_PATH);
if (env.SEED_DEMO === "1") {
  const added = await seedDemoEvents(db, env.UPLOADS_DIR);
  if (added > 0) log("info", `seeded ${added} demo events`);
}
const { sms, devOutbox } = createSmsProvider(env, db, log, now);
const payments = createPaymentsProvider(env, db, now);

const staticDir = env.STATIC_DIR ?? join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
if (!existsSync(join(staticDir, "index.html"))) {
  log("warn", "no built PWA in dist/: run `npm run build` (npm start does) to serve the app");
}

const app = createApp({ db, env, sms, devOutbox, payments, log, now, staticDir });

const server = serve({ fetch: app.fetch, port: env.PORT }, (info) => {
  log("info", `listening on ${env.PUBLIC_BASE_URL} (port ${info.port})`, {
    payments: payments.name,
    sms: sms.name,
  });
  if (env.adminPasswordIsDefault) {
    log("info", `admin password (development default, set ADMIN_PASSWORD to change): ${env.ADMIN_PASSWORD}`);
  }
});

// Messages whose first send failed (or that a crash interrupted) are retried in the background.
const retry = setInterval(() => {
  deliverPending({ db, sms, log, now }).catch((error) => log("error", "outbox retry failed", { error: String(error) }));
}, 30_000);
retry.unref();

const shutdown = () => {
  clearInterval(retry);
  server.close();
  db.$client.close();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
