import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { marketingContacts } from "../../db/marketing-schema.ts";
import type { AppDeps } from "../deps.ts";
import { Forbidden } from "../lib/errors.ts";
import { apiRouter, errors, json, z } from "../lib/openapi.ts";
import { idParam } from "../lib/validate.ts";
import {
  isValidEmailConsentToken,
  isValidUnsubscribeToken,
  recordConsentOfContact,
  textsStillOnFor,
} from "./consent.ts";

// The one-tap way out of a marketing email (issue 36): the Unsubscribe link (/unsubscribe?c&t, the
// PWA's page) and the List-Unsubscribe header (this call's address, RFC 8058) both name a contact by
// id with a token signed for that purpose. No login, no details asked, and nothing in any reply says
// whose address it is: holding the link is enough to say "no more", and to learn nothing else.

const linkQuery = z.object({
  c: z.string().regex(/^[1-9]\d{0,15}$/, "must be a positive integer"),
  t: z.string().min(1, "is required").max(200, "must be at most 200 characters"),
});

const unsubscribeRoute = createRoute({
  method: "post",
  path: "/unsubscribe",
  summary:
    "One-click unsubscribe from an email's link or List-Unsubscribe header: withdraws that address's yes to emails about future events; a repeat answers the same",
  description: [
    "One-click unsubscribe: the page's **Unsubscribe** button, and a mail client's own button through the",
    "email's `List-Unsubscribe` header (`<PUBLIC_BASE_URL/api/unsubscribe?c=…&t=…>`, with",
    "`List-Unsubscribe-Post: List-Unsubscribe=One-Click`, RFC 8058).",
    "",
    "- **Who:** capability link token (`c` and `t`, as for `GET /api/unsubscribe`). No login, and no cross-origin check.",
    "- **Body:** any or none (a mail client sends the form body `List-Unsubscribe=One-Click`); ignored.",
    "- **200:** `{unsubscribed: true, textsStillOn}`: the contact's yes (or pending request) is withdrawn",
    "  (a no appended, source `unsubscribe`); a repeat answers the same and records nothing. Only emails",
    "  stop: `textsStillOn` says whether a number that booked with this address still takes texts about",
    "  future events, so the page can say that **My nights** turns those off. The reply never says whose",
    "  address or which number it is.",
    "",
    "No login and no cross-origin check: mail clients POST here from elsewhere (RFC 8058), with the form body `List-Unsubscribe=One-Click`; the PWA's page sends no body. Any body is accepted and ignored: the signed `c` and `t` are what count.",
  ].join("\n"),
  request: { query: linkQuery },
  responses: {
    200: json(
      z.strictObject({
        unsubscribed: z.literal(true),
        textsStillOn: z
          .boolean()
          .describe(
            "Whether a number that booked with this address still takes texts about future events (My nights turns those off); never which",
          ),
      }),
    ),
    // Exempt from the cross-origin check (api/lib/same-origin.ts), so its codes are listed one by one.
    ...errors("get", ["invalid_request", "too_large", "invalid_link"], {
      400: "`invalid_request` (a missing or malformed `c` or `t`).",
    }),
  },
});

const checkRoute = createRoute({
  method: "get",
  path: "/unsubscribe",
  summary: "Whether an unsubscribe link is valid, for its page; changes nothing (a mail scanner may open links)",
  description: [
    "Whether an unsubscribe link is valid, for the `/unsubscribe` page; changes nothing, so a mail",
    "scanner that opens links unsubscribes no one.",
    "",
    "- **Who:** capability link token (the link's `c` and `t`, signed for unsubscribing).",
    "- **200:** `{valid: true}`. Nothing says whose address it is.",
  ].join("\n"),
  request: { query: linkQuery },
  responses: {
    200: json(z.strictObject({ valid: z.literal(true) })),
    ...errors("get", ["invalid_request", "invalid_link"]),
  },
});

const confirmCheckRoute = createRoute({
  method: "get",
  path: "/confirm-email-consent",
  summary:
    "Whether an email-consent confirmation link is valid, for its page; changes nothing (a mail scanner may open links)",
  description: [
    "Whether a confirmation link is valid, for the `/confirm-email-consent` page; changes nothing (a mail",
    "scanner may open links).",
    "",
    "- **Who:** capability link token (`c`: id of the marketing contact; `t`: text 1–200, signed for",
    "  confirming email consent: an unsubscribe token for the same contact is refused).",
    "- **200:** `{valid: true}`. Nothing says whose address it is.",
  ].join("\n"),
  request: { query: linkQuery },
  responses: {
    200: json(z.strictObject({ valid: z.literal(true) })),
    ...errors("get", ["invalid_request", "invalid_link"]),
  },
});

const confirmRoute = createRoute({
  method: "post",
  path: "/confirm-email-consent",
  summary:
    "The confirmation email's button: records the address's own yes to emails about future events (docs/decisions/039); a repeat answers the same",
  description: [
    "The confirmation page's one button (the words of the email's link: api/messaging/templates/email-consent.ts).",
    "",
    "- **Who:** capability link token, as `GET`. No login.",
    "- **200:** `{confirmed: true}`: a yes is appended (source `confirmation`) unless the address's newest",
    "  choice is already one; a repeat answers the same and records nothing. The reply never says whose",
    "  address it is.",
    "",
    "No login: the link's `c` and `t` (signed for this purpose only) are the proof that the address's owner asked. The reply never says whose address it is.",
  ].join("\n"),
  request: { query: linkQuery },
  responses: {
    200: json(z.strictObject({ confirmed: z.literal(true) })),
    ...errors("post", ["invalid_request", "invalid_link"]),
  },
});

export const unsubscribeRoutes = (deps: AppDeps) => {
  /** The contact an email-consent link names, or 403. */
  const confirmingContactOf = (query: { c: string; t: string }) => {
    const contactId = idParam(z).parse(query.c);
    if (!isValidEmailConsentToken(deps.env, contactId, query.t)) {
      throw Forbidden("This link is not valid.", "invalid_link");
    }
    return contactId;
  };
  /** The contact the link names, or 403 for a token that is not this contact's unsubscribe token. */
  const contactOf = (query: { c: string; t: string }) => {
    const contactId = idParam(z).parse(query.c);
    if (!isValidUnsubscribeToken(deps.env, contactId, query.t)) {
      throw Forbidden("This link is not valid.", "invalid_link");
    }
    return contactId;
  };
  return apiRouter()
    .openapi(checkRoute, (c) => {
      contactOf(c.req.valid("query"));
      return c.json({ valid: true as const }, 200);
    })
    .openapi(unsubscribeRoute, (c) => {
      const contactId = contactOf(c.req.valid("query"));
      const textsStillOn = deps.db.transaction(
        (tx) => {
          // Only we sign tokens, and only for contacts that exist; one removed since has nothing to stop.
          const contact = tx
            .select({ id: marketingContacts.id })
            .from(marketingContacts)
            .where(eq(marketingContacts.id, contactId))
            .get();
          if (!contact) return false;
          recordConsentOfContact(tx, contactId, { given: false, source: "unsubscribe", at: deps.now() });
          return textsStillOnFor(tx, contactId);
        },
        { behavior: "immediate" },
      );
      return c.json({ unsubscribed: true as const, textsStillOn }, 200);
    })
    .openapi(confirmCheckRoute, (c) => {
      confirmingContactOf(c.req.valid("query"));
      return c.json({ valid: true as const }, 200);
    })
    .openapi(confirmRoute, (c) => {
      const contactId = confirmingContactOf(c.req.valid("query"));
      deps.db.transaction(
        (tx) => {
          const contact = tx
            .select({ id: marketingContacts.id, channel: marketingContacts.channel })
            .from(marketingContacts)
            .where(eq(marketingContacts.id, contactId))
            .get();
          // Only email contacts are ever sent such a link; one erased since has nothing to confirm.
          if (contact?.channel === "email")
            recordConsentOfContact(tx, contactId, { given: true, source: "confirmation", at: deps.now() });
        },
        { behavior: "immediate" },
      );
      return c.json({ confirmed: true as const }, 200);
    });
};
