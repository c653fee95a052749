import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { NotFound } from "../lib/errors.ts";
import { apiRouter, errors, json, z } from "../lib/openapi.ts";

const devMailboxRoute = createRoute({
  method: "get",
  path: "/dev/mailbox",
  summary: "Every email the local mail provider sent (development only)",
  responses: {
    200: json(
      z.array(
        z.strictObject({
          to: z.string(),
          subject: z.string(),
          text: z.string(),
          html: z.string().nullable(),
          attachments: z.array(z.string()),
          createdAt: z.iso.datetime(),
        }),
      ),
    ),
    ...errors("get", ["not_found"]),
  },
});

export const mailboxRoutes = (deps: AppDeps) =>
  apiRouter().openapi(devMailboxRoute, (c) => {
    // Exists only with the local provider (no SMTP_URL), and never in production, as GET /api/dev/outbox.
    if (!deps.devMailbox || deps.env.NODE_ENV === "production") throw NotFound("no such endpoint");
    return c.json(deps.devMailbox.list(), 200);
  });
