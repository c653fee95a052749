import { expect } from "vitest";
import { type AppDeps, createApp } from "../../api/app.ts";
import { type BrowserClient, browserClient, type TestServer } from "../api-harness.ts";
import { insertEvent, insertPaidBookings } from "../fixtures.ts";

// What the host-access suites share: a started night, a host link made by the organiser, and a
// phone signed in with it (docs/decisions/022-host-access.md).

export const PASSWORD = "correct horse battery staple";
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;
export type LinkReply = { id: number; label: string; url: string; expiresAt: string; eventID: number };

/**
 * Every call under /api, as Hono lists it (`GET /api/admin-event/:id/roster`): the walks over the
 * app read them from the app itself, so a call added later is walked without touching a test.
 */
export function appRoutes(deps: AppDeps) {
  const routes = createApp(deps)
    .routes.filter((r) => r.path.startsWith("/api/") && r.method !== "ALL")
    .map((r) => `${r.method} ${r.path}`);
  return [...new Set(routes)].sort();
}

/**
 * Calls `route` for `eventId` (every path parameter is the event's id). The default body is enough
 * for a guard to be reached: the session guards run before the body is validated.
 */
export function callRoute(
  client: BrowserClient,
  route: string,
  eventId: number,
  body: Record<string, unknown> = { eventID: eventId, eventId, eventid: eventId, id: eventId },
) {
  const [method, path] = route.split(" ") as [string, string];
  const url = path.replace(/:\w+(\{[^}]*\})?/g, String(eventId));
  // A GET names its event in the path, or (the room's stream) in the query; the others ignore it.
  return method === "GET" || method === "HEAD"
    ? client.request(`${url}?eventID=${eventId}`, { method })
    : client.request(url, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

export function hostAccessHelpers(server: TestServer, admin: () => BrowserClient) {
  /** A night under way for half an hour, with `count` paid attendees. */
  async function night(count = 4, name = "Host Night") {
    const { db, env } = server.deps;
    const now = server.deps.now();
    const event = await insertEvent(db, env.UPLOADS_DIR, { name, status: "started", startsAt: now - 30 * MINUTE });
    return { event, attendees: insertPaidBookings(db, event.id, count, { paidAt: now - 24 * HOUR }) };
  }

  async function newLink(eventID: number, label = "Door 1") {
    const response = await admin().postJson("/api/host-links", { eventID, label });
    expect(response.status).toBe(200);
    return json<LinkReply>(response);
  }

  /** A phone that opened the link: the cookie host-login set. */
  async function hostPhone(link: LinkReply) {
    const phone = browserClient(server.url);
    const token = new URL(link.url).searchParams.get("t");
    const response = await phone.postJson("/api/host-login", { token });
    expect(response.status).toBe(200);
    return { phone, response };
  }

  return { night, newLink, hostPhone };
}

/**
 * A body every staff call's validation accepts for `eventId`, so that the call reaches the staff
 * guard's event scope, which runs after validation. A staff call with a new required field fails the
 * walks (who-is-calling, staff-routes) with a 400 until the field is added here.
 */
export function staffCallBody(eventId: number, [from, to]: [number, number], now: number) {
  return {
    eventID: eventId,
    eventId,
    eventid: eventId,
    id: eventId,
    userID: from,
    userIDs: [from, to],
    fromUserID: from,
    toUserID: to,
    clientTs: now,
    feedback: "like",
    left: true,
    action: "start",
    to: "all",
    text: "See you at the bar.",
  };
}
