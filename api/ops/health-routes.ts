import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createRoute } from "@hono/zod-openapi";
import { databaseAnswers } from "../../db/sqlite.ts";
import type { AppDeps } from "../deps.ts";
import { apiRouter, errors, json, z } from "../lib/openapi.ts";

const healthzRoute = createRoute({
  method: "get",
  path: "/healthz",
  summary: "Whether the database answers and the data and uploads folders take a write (outside /api)",
  description: [
    "Outside `/api`: no body limit, no rate limit.",
    "",
    "- **Who:** public (the proxy, the container's `HEALTHCHECK`, an uptime check).",
    "- **200:** `{ok: true}`: the database answers a query, and the data folder and the uploads folder",
    "  take a write.",
    "- **503:** `{ok: false}`; the cause goes to the server log only. `Cache-Control: no-store`.",
  ].join("\n"),
  responses: {
    200: json(z.strictObject({ ok: z.literal(true) }), "Healthy"),
    503: json(z.strictObject({ ok: z.literal(false) }), "Unhealthy; the cause goes to the server log only"),
    ...errors("get", []),
  },
});

/**
 * GET /healthz, for the proxy, the container's HEALTHCHECK and an uptime check. Healthy means the
 * two things every booking needs: the database answers a query, and the data folder and the uploads
 * folder take a write (a full disk or a read-only mount fails here first). Outside /api, so no rate
 * limit or body limit applies, and the answer says nothing but ok: the cause goes to the log.
 */
export const healthRoutes = (deps: Pick<AppDeps, "db" | "env" | "log">) =>
  apiRouter().openapi(healthzRoute, async (c) => {
    c.header("cache-control", "no-store");
    const problems: string[] = [];
    try {
      databaseAnswers(deps.db);
    } catch (error) {
      problems.push(`database: ${String(error)}`);
    }
    for (const dir of new Set([dirname(deps.env.DATABASE_PATH), deps.env.UPLOADS_DIR])) {
      try {
        await probeWrite(dir);
      } catch (error) {
        problems.push(`folder ${dir}: ${String(error)}`);
      }
    }
    if (problems.length > 0) {
      deps.log("error", "health check failed", { problems });
      return c.json({ ok: false as const }, 503);
    }
    return c.json({ ok: true as const }, 200);
  });

/** Creates the folder if it is missing (as the app would), then writes and removes a small file. */
async function probeWrite(dir: string) {
  await mkdir(dir, { recursive: true });
  const probe = join(dir, `.healthz-${process.pid}-${randomBytes(6).toString("hex")}`);
  try {
    await writeFile(probe, "ok");
  } finally {
    await rm(probe, { force: true });
  }
}
