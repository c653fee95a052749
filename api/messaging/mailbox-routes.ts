import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { NotFound } from "../lib/errors.ts";
import { apiRouter, errors, json, z } from "../lib/openapi.ts";
import { mailboxEntry } from "../providers/mail/types.ts";

const devMailboxRoute = createRoute({
  method: "get",
  path: "/dev/mailbox",
  summary: "Every email the local mail provider sent (development only)",
  description: [
    "Texts and emails leave through one outbox (once per message, across restarts, retried with backoff;",
    "docs/decisions/031-email-channel.md); without `SMTP_URL` the emails stop at the local mail provider,",
    "which this call shows.",
    "",
    "- **Who:** dev-only local providers (the local mail provider, not in production).",
    "- **200:** JSON array, oldest first (newest last), of every email sent since start-up:",
    "  `[{to, subject, text, html, attachments, createdAt}]` (`html` null for a text-only email,",
    "  `attachments` the file names, `createdAt` ISO 8601 UTC). Ticket links can be read here.",
  ].join("\n"),
  responses: {
    200: json(z.array(mailboxEntry)),
    ...errors("get", ["not_found"], { 404: "`not_found` (`SMTP_URL` configured, or production)." }),
  },
});

export const mailboxRoutes = (deps: AppDeps) =>
  apiRouter().openapi(devMailboxRoute, (c) => {
    // Exists only with the local provider (no SMTP_URL), and never in production, as GET /api/dev/outbox.
    if (!deps.devMailbox || deps.env.NODE_ENV === "production") throw NotFound("no such endpoint");
    return c.json(deps.devMailbox.list(), 200);
  });
