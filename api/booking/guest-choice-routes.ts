import { createRoute } from "@hono/zod-openapi";
import { guestChoiceKinds, guestChoiceValues } from "../../db/guest-choice-schema.ts";
import type { AppDeps } from "../deps.ts";
import { apiRouter, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { chooseForGuest, viewGuestChoice } from "./guest-choice.ts";

// The guest's page `/choose?t=` (issue 52 part 3, docs/decisions/059-short-of-numbers.md): what
// happened to their night and their choice. The link's token is the only proof: it names one choice.

const token = z.string().min(1).max(300);
const time = z.iso.datetime();
const choice = z.enum(guestChoiceValues);

const guestChoiceReply = z
  .strictObject({
    kind: z.enum(guestChoiceKinds),
    eventName: z.string(),
    startsAt: time,
    timeZone: z.string(),
    toEvent: z.strictObject({ name: z.string(), startsAt: time, timeZone: z.string(), address: z.string() }).nullable(),
    refundCents: z.number().int(),
    creditCents: z.number().int(),
    deadline: time,
    choice: choice.nullable(),
  })
  .openapi("GuestChoice");

const LINK_REFUSALS = {
  400: "`invalid_request` (the link is cut short), with a sentence.",
  401: "`choice_link_invalid` (the signature does not match, or its choice is gone), with a sentence.",
};

const getGuestChoiceRoute = createRoute({
  method: "get",
  path: "/guest-choice",
  summary: "A guest's choice after their night was cancelled or moved: the night, the amounts, the choice made",
  description: [
    "- **Who:** anyone with the link's token `t` (texted by **Cancel the night** or **Move to another night**).",
    "- **200:** `{kind, eventName, startsAt, timeZone, toEvent, refundCents, creditCents, deadline, choice}`:",
    "  `toEvent` `{name, startsAt, timeZone, address}` for a move; `choice` null until made (the refund once",
    "  the deadline passed). Nothing of anyone else: no phone, no other guest. `Cache-Control: no-store`.",
  ].join("\n"),
  request: { query: z.object({ t: token }) },
  responses: {
    200: json(guestChoiceReply),
    ...errors("get", ["invalid_request", "choice_link_invalid"], LINK_REFUSALS),
  },
});

const postGuestChoiceRoute = createRoute({
  method: "post",
  path: "/guest-choice",
  summary: "The guest chooses a refund, credit or (a move) their seat on the new night, once",
  description: [
    "- **Who:** anyone with the link's token `t`.",
    '- **Body:** `{t, choice}`: `"refund"`, `"credit"`, or `"move"` (a move only).',
    '- **200:** `{choice, status: "refunded"|"credited"|"moved"}`: the refund through the one refund path,',
    "  the credit on the number (`/me`), or the held seat paid with the old booking's money and a new",
    "  ticket texted (the old one NOT VALID). The same choice again answers the same; two at once settle once.",
  ].join("\n"),
  request: jsonBody(z.strictObject({ t: token, choice })),
  responses: {
    200: json(z.strictObject({ choice, status: z.enum(["refunded", "credited", "moved"]) })),
    ...errors("post", ["choice_link_invalid", "already_chosen", "provider_failed"], {
      ...LINK_REFUSALS,
      409: "`already_chosen` (another choice was made, or the deadline chose the refund; `choice` names it).",
    }),
  },
});

export const guestChoiceRoutes = (deps: AppDeps) =>
  apiRouter()
    .openapi(getGuestChoiceRoute, (c) => {
      c.header("cache-control", "no-store");
      return c.json(viewGuestChoice(deps, c.req.valid("query").t), 200);
    })
    .openapi(postGuestChoiceRoute, async (c) => {
      const { t, choice: chosen } = c.req.valid("json");
      return c.json(await chooseForGuest(deps, t, chosen), 200);
    });
