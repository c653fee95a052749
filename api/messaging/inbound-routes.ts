import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { normaliseAuMobile } from "../../common/phone.ts";
import type { AppDeps } from "../deps.ts";
import { Forbidden, NotFound } from "../lib/errors.ts";
import { apiRouter, errors, file, json, jsonBody, z } from "../lib/openapi.ts";
import { isTwilioRequest } from "../providers/sms/twilio.ts";
import { handleInboundSms } from "./inbound-sms.ts";

// Texts people send to our number (issue 36): STOP and its kin opt out of marketing texts, START opts
// back in (inbound-sms.ts). Twilio posts them to its webhook; the console provider's stand-in is a
// development-only JSON call.

// Twilio's Advanced Opt-Out answers STOP and START itself (with the account's confirmation text), so
// our reply is always the empty TwiML: replying here too would send the person a second text.
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

const twilioInboundRoute = createRoute({
  method: "post",
  path: "/twilio/inbound",
  summary:
    "Twilio's webhook for a text sent to our number: STOP, UNSUBSCRIBE, CANCEL, END, QUIT opt out; START opts in",
  description: [
    "Twilio's webhook for a text sent to our number.",
    "",
    "- **Who:** Twilio: the `X-Twilio-Signature` header must verify with the Twilio SDK's validator,",
    "  `TWILIO_AUTH_TOKEN` and the URL `PUBLIC_BASE_URL/api/twilio/inbound`, over every field posted.",
    "  Without `TWILIO_AUTH_TOKEN` every request is refused. Checked before anything is read.",
    "- **Body (`application/x-www-form-urlencoded`):** Twilio's fields; `MessageSid` (Twilio's id of the",
    "  text, `SM`/`MM` and 32 hex digits), `From` (the sender, E.164: `+` and 7–15 digits) and `Body`",
    "  (the text) are read.",
    "- **Once:** each text is taken once, by its `MessageSid` (docs/decisions/039). Twilio's signature",
    "  carries no timestamp, so anyone who saw a signed request could send it again: a sid already taken",
    "  answers the same empty TwiML and changes nothing (a replayed START after a STOP stays opted out).",
    "  Only the sid and the time are kept.",
    "- **Handles:** the text's first word, trimmed, in any case: `STOP`, `UNSUBSCRIBE`, `CANCEL`, `END`,",
    "  `QUIT` record a no for texts to `From`, `START` a yes (source `inbound`). Any other text records",
    "  nothing.",
    "- **200:** empty TwiML (`<Response/>`, `text/xml`): Twilio's Advanced Opt-Out sends the confirmation",
    "  text itself.",
    "",
    "Form-encoded as Twilio posts it (`MessageSid`, `From`, `Body` and Twilio's other fields). The `X-Twilio-Signature` header is checked with the Twilio SDK against `PUBLIC_BASE_URL/api/twilio/inbound` and every field, before anything is read; without `TWILIO_AUTH_TOKEN` every request is refused. Then a `From` that is not an E.164 number is 400. Each text is taken once, by its `MessageSid`: the signature has no timestamp, so a repeat (a replayed START after a STOP) answers the same empty TwiML and changes nothing.",
  ].join("\n"),
  request: {
    body: {
      required: true,
      content: {
        "application/x-www-form-urlencoded": {
          schema: z.object({
            MessageSid: z.string().regex(/^[A-Z]{2}[0-9a-f]{32}$/, "must be a Twilio message id"),
            From: z.string().regex(/^\+[1-9]\d{6,14}$/, "must be a phone number in E.164 form"),
            Body: z.string().max(1600),
          }),
        },
      },
    },
  },
  responses: {
    200: file("text/xml", "Empty TwiML: Twilio's Advanced Opt-Out sends the confirmation"),
    // Server to server, proven by its signature: exempt from the cross-origin check (api/lib/same-origin.ts).
    ...errors("get", ["invalid_request", "too_large", "forbidden"], {
      400: "`invalid_request` (a signed request without `MessageSid` or `Body`, or whose `From` is not an E.164 number: a short code, `whatsapp:…`; nothing is recorded).",
      403: "`forbidden` (no or bad signature, or no `TWILIO_AUTH_TOKEN`).",
    }),
  },
});

/** A mobile as the console provider texts it (E.164); messaging/ imports no other room's field. */
const mobile = z
  .string()
  .max(32)
  .transform((value, ctx) => {
    const phone = normaliseAuMobile(value);
    if (phone) return phone;
    ctx.addIssue({ code: "custom", message: "must be an Australian mobile number" });
    return z.NEVER;
  });

const devInboundRoute = createRoute({
  method: "post",
  path: "/dev/inbound-sms",
  summary: "A text sent to our number, as the local SMS provider's stand-in for Twilio's webhook (development only)",
  description: [
    "The console SMS provider's stand-in for Twilio's inbound webhook: a text",
    '"sent to our number" from `from`, handled as the webhook handles it.',
    "",
    "- **Who:** dev-only local providers (the console SMS provider, not in production).",
    "- **200:** `{outcome}`: `opted_out`, `opted_in` or `ignored`.",
  ].join("\n"),
  request: jsonBody(
    z.strictObject({
      from: mobile,
      body: z.string().trim().min(1, "is required").max(1600, "must be at most 1600 characters"),
    }),
  ),
  responses: {
    200: json(z.strictObject({ outcome: z.enum(["opted_out", "opted_in", "ignored"]) })),
    ...errors("post", ["not_found"], { 404: "`not_found` (Twilio configured, or production)." }),
  },
});

export const inboundRoutes = (deps: AppDeps) => {
  // Refused before the fields are judged: a request Twilio did not sign learns nothing and changes nothing.
  const signedByTwilio: MiddlewareHandler = async (c, next) => {
    const token = deps.env.TWILIO_AUTH_TOKEN;
    let params: Record<string, string> = {};
    try {
      const body = await c.req.parseBody();
      params = Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === "string"));
    } catch {
      // An unreadable body has no valid signature either.
    }
    const url = `${deps.env.PUBLIC_BASE_URL}/api/twilio/inbound`;
    if (!token || !(await isTwilioRequest(token, c.req.header("x-twilio-signature"), url, params))) {
      throw Forbidden("this request is not signed by Twilio", "forbidden");
    }
    return next();
  };
  // Exists only with the console provider, and never in production (as GET /api/dev/outbox), decided
  // before the body is judged so that elsewhere it is simply not there.
  const devOnly: MiddlewareHandler = async (_c, next) => {
    if (!deps.devOutbox || deps.env.NODE_ENV === "production") throw NotFound("no such endpoint");
    return next();
  };
  return apiRouter()
    .openapi({ ...twilioInboundRoute, middleware: signedByTwilio }, (c) => {
      const { MessageSid, From, Body } = c.req.valid("form");
      handleInboundSms(deps.db, { sid: MessageSid, from: From, body: Body, at: deps.now() });
      return c.body(EMPTY_TWIML, 200, { "content-type": "text/xml; charset=utf-8" });
    })
    .openapi({ ...devInboundRoute, middleware: devOnly }, (c) => {
      const { from, body } = c.req.valid("json");
      return c.json({ outcome: handleInboundSms(deps.db, { from, body, at: deps.now() }) }, 200);
    });
};
