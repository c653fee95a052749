import { createRoute } from "@hono/zod-openapi";
import { ANNOUNCEMENT_TEXT_MAX } from "../../common/announcement.ts";
import { INVISIBLE_CONTROLS_MESSAGE, withoutInvisibleControls } from "../../common/plain-text.ts";
import { consentChannels } from "../../db/marketing-schema.ts";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, adminRoute } from "../lib/admin-session.ts";
import { apiRouter, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { idParam, jsonId } from "../lib/validate.ts";
import { announcementPreview, announcementRow, recipients } from "./admin-schemas.ts";
import { listAnnouncements, previewAnnouncement, sendAnnouncement } from "./announcements.ts";

// Announcements (issue 36, docs/decisions/034-invitations.md): the organiser's Invite tab. Organiser
// only: a host link's session is 403, as for every call behind requireAdmin.

const audience = z
  .strictObject({
    pastGuests: z.boolean().optional(),
    ageFit: z.boolean().optional(),
    gender: z.enum(["female", "male"], "must be female or male").optional(),
    waitlisted: z.boolean().optional(),
  })
  .openapi({ description: "Filters, all optional and combined; none is everyone who opted in." });

const channels = z
  .array(z.enum(consentChannels))
  .min(1, "Choose at least one way to send it: text message, email or both.")
  .max(2)
  .refine((list) => new Set(list).size === list.length, "Each channel can be chosen once.");

/** Only the false/undefined-free filters are kept, so `{pastGuests: false}` is stored as no filter. */
const chosenFilters = (a: z.output<typeof audience>) => ({
  ...(a.pastGuests ? { pastGuests: true } : {}),
  ...(a.ageFit ? { ageFit: true } : {}),
  ...(a.gender ? { gender: a.gender } : {}),
  ...(a.waitlisted ? { waitlisted: true } : {}),
});

const text = (min: number) =>
  z
    .string()
    .trim()
    .min(min, "Write the text of the invitation.")
    .max(ANNOUNCEMENT_TEXT_MAX, `Keep the text to ${ANNOUNCEMENT_TEXT_MAX} characters.`)
    .refine(withoutInvisibleControls, INVISIBLE_CONTROLS_MESSAGE);

const request = (textMin: number) =>
  z.object({ eventID: jsonId(z), audience: audience.default({}), channels, text: text(textMin) });

const sendRoute = createRoute({
  method: "post",
  path: "/announcements",
  summary: "Invites people who opted in to an upcoming event: queued at once, sent at INVITE_RATE_PER_MINUTE",
  description: [
    "Sends an announcement: the row and one outbox message per address per channel are queued in one",
    "transaction, keyed `announce:{id}:{channel}:{address}`, so each person gets it once per announcement",
    "across retries and restarts. The outbox sends marketing at `INVITE_RATE_PER_MINUTE` (default 60) at",
    "most, texts and emails together, and suppresses a message whose address no longer consents when its",
    "turn comes. Logged in Activity as `announcement sent` with its counts.",
    "",
    "- **Who:** organiser session only (a host's session is 403).",
    "- **Body (JSON):** the shared body below; `text` required.",
    "- **201:** `{id, recipients: {sms, email}}`.",
    "",
    "The organiser's **Invite** tab (issue 36, docs/decisions/034-invitations.md): an announcement of an",
    "upcoming event to people who said yes to **Text me about future events** or **Email me about future",
    "events**. Marketing identifies its sender and carries a way out (api/messaging/templates/announcement.ts): the",
    "text is `{BUSINESS_NAME}: ` (unless the text names the business) + the organiser's text + a last line",
    "`Reply STOP to opt out`; the email's subject is the event's name and date, its footer names",
    "`BUSINESS_NAME`, `BUSINESS_ABN`, `BUSINESS_ADDRESS` and `SUPPORT_EMAIL` and links **Unsubscribe**",
    "(the `/unsubscribe` page, one tap, no sign-in), and it carries `List-Unsubscribe` (a one-click POST to",
    "`/api/unsubscribe`) and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`. In the text, `{link}`",
    "stands for the event's link `/?event={id}&a={announcement}` (added on a line of its own when absent);",
    "a booking made through it is counted on the announcement.",
    "",
    "Shared body of the two POSTs:",
    "- `eventID`: id of an upcoming event (not started, ended or cancelled).",
    "- `audience?`: `{pastGuests?, ageFit?, gender?, waitlisted?}`, all optional and combined (AND);",
    "  none (or `{}`) is everyone who opted in on each channel. People are phones, each with the gender,",
    "  date of birth and email of its newest details form (a waitlist-only person: the entry's gender, no",
    "  email). `pastGuests`: a paid (not refunded or cancelled) booking at a night that has ended;",
    "  `ageFit`: a known date of birth within the event's range for their gender on its date;",
    "  `gender`: `female` (women) or `male` (men); `waitlisted`: a waitlist entry at any event. People who",
    "  hold a paid booking for the event are left out. An address is included only if its newest choice",
    "  for that channel is a yes; the outbox checks again when it sends.",
    "- `channels`: one or both of `sms`, `email`, each once. `email` is refused (400) with `EMAIL=off`.",
    "- `text`: up to 2,000 characters after trimming. As a text message, everything included, at most",
    "  480 characters (common/announcement.ts).",
  ].join("\n"),
  request: jsonBody(request(1)),
  responses: {
    201: json(z.strictObject({ id: z.number().int(), recipients }), "Queued"),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"], {
      400: '`invalid_request` (e.g. "The text message would be 512 characters; keep it to 480.").',
      403: "`forbidden` (a host link's session).",
      409: "`wrong_state` (the event has started, ended or was cancelled).",
    }),
  },
});

const previewRoute = createRoute({
  method: "post",
  path: "/announcements/preview",
  summary: "How many an announcement would reach per channel, and its text and email as they would arrive",
  description: [
    "What the tab shows before sending.",
    "",
    "- **Who:** organiser session only (a host's session is 403).",
    "- **Body (JSON):** as for `POST /api/announcements`; `text` may be empty.",
    "- **200:** `{recipients: {sms, email}, sms, email}`: how many each channel reaches now; `sms` the",
    "  text exactly as it will arrive (or null without `sms`), over 480 characters too, so the tab can say",
    "  by how much; `email` `{subject, text, html}` as it will arrive but for the unsubscribe link, a",
    "  sample (`/unsubscribe?c=SAMPLE&t=SAMPLE`) that names no one (or null without `email`).",
  ].join("\n"),
  request: jsonBody(request(0)),
  responses: {
    200: json(announcementPreview),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"], {
      403: "`forbidden` (a host link's session).",
      409: "`wrong_state` (the event has started, ended or was cancelled).",
    }),
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/announcements",
  summary: "The event's announcements, newest first, with their delivery and the bookings made through them",
  description: [
    "- **Who:** organiser session only (a host's session is 403).",
    "- **200:** the event's announcements, newest first: `[{id, createdAt, channels, audience, text,",
    "  recipients: {sms, email}, progress: {sent, total, suppressed, failed}, booked: {total, female,",
    "  male}}]`. `progress` counts its outbox messages (`total` all of them; the rest are still pending);",
    "  `booked` the paid bookings made through its link, by gender. Counts only: no number, address or",
    "  name.",
  ].join("\n"),
  request: { params: z.object({ id: idParam(z) }) },
  responses: {
    200: json(z.array(announcementRow)),
    ...errors("get", ["invalid_request", ...ADMIN_ERRORS, "not_found"]),
  },
});

export const announcementRoutes = (deps: AppDeps) => {
  return apiRouter()
    .openapi(adminRoute(deps, previewRoute, "managers"), (c) => {
      const b = c.req.valid("json");
      const input = { eventId: b.eventID, audience: chosenFilters(b.audience), channels: b.channels, text: b.text };
      return c.json(previewAnnouncement(deps, input), 200);
    })
    .openapi(adminRoute(deps, sendRoute, "managers"), (c) => {
      const b = c.req.valid("json");
      const input = { eventId: b.eventID, audience: chosenFilters(b.audience), channels: b.channels, text: b.text };
      return c.json(sendAnnouncement(deps, input), 201);
    })
    .openapi(adminRoute(deps, listRoute, "managers"), (c) => {
      return c.json(listAnnouncements(deps.db, c.req.valid("param").id), 200);
    });
};
