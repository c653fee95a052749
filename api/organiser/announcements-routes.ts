import { createRoute } from "@hono/zod-openapi";
import { ANNOUNCEMENT_TEXT_MAX } from "../../common/announcement.ts";
import { INVISIBLE_CONTROLS_MESSAGE, withoutInvisibleControls } from "../../common/plain-text.ts";
import { consentChannels } from "../../db/marketing-schema.ts";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, requireAdmin } from "../lib/admin-session.ts";
import { apiRouter, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { idParam, jsonId } from "../lib/validate.ts";
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

const recipients = z.strictObject({ sms: z.number().int(), email: z.number().int() });

const announcement = z.strictObject({
  id: z.number().int(),
  createdAt: z.iso.datetime(),
  channels: z.array(z.enum(consentChannels)),
  audience: z.strictObject({
    pastGuests: z.boolean().optional(),
    ageFit: z.boolean().optional(),
    gender: z.enum(["female", "male"]).optional(),
    waitlisted: z.boolean().optional(),
  }),
  text: z.string(),
  recipients,
  progress: z.strictObject({
    sent: z.number().int(),
    total: z.number().int(),
    suppressed: z.number().int(),
    failed: z.number().int(),
  }),
  booked: z.strictObject({ total: z.number().int(), female: z.number().int(), male: z.number().int() }),
});

const sendRoute = createRoute({
  method: "post",
  path: "/announcements",
  summary: "Invites people who opted in to an upcoming event: queued at once, sent at INVITE_RATE_PER_MINUTE",
  request: jsonBody(request(1)),
  responses: {
    201: json(z.strictObject({ id: z.number().int(), recipients }), "Queued"),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"]),
  },
});

const previewRoute = createRoute({
  method: "post",
  path: "/announcements/preview",
  summary: "How many an announcement would reach per channel, and its text and email as they would arrive",
  request: jsonBody(request(0)),
  responses: {
    200: json(
      z.strictObject({
        recipients,
        sms: z.string().nullable(),
        email: z.strictObject({ subject: z.string(), text: z.string(), html: z.string() }).nullable(),
      }),
    ),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"]),
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/announcements",
  summary: "The event's announcements, newest first, with their delivery and the bookings made through them",
  request: { params: z.object({ id: idParam(z) }) },
  responses: {
    200: json(z.array(announcement)),
    ...errors("get", ["invalid_request", ...ADMIN_ERRORS, "not_found"]),
  },
});

export const announcementRoutes = (deps: AppDeps) => {
  const admin = requireAdmin(deps);
  return apiRouter()
    .openapi({ ...previewRoute, middleware: admin }, (c) => {
      const b = c.req.valid("json");
      const input = { eventId: b.eventID, audience: chosenFilters(b.audience), channels: b.channels, text: b.text };
      return c.json(previewAnnouncement(deps, input), 200);
    })
    .openapi({ ...sendRoute, middleware: admin }, (c) => {
      const b = c.req.valid("json");
      const input = { eventId: b.eventID, audience: chosenFilters(b.audience), channels: b.channels, text: b.text };
      return c.json(sendAnnouncement(deps, input), 201);
    })
    .openapi({ ...listRoute, middleware: admin }, (c) => {
      return c.json(listAnnouncements(deps.db, c.req.valid("param").id), 200);
    });
};
