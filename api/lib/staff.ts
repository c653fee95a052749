import type { RouteConfig } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { AppDeps } from "../deps.ts";
import { type ActivityInput, type ActorKind, ORGANISER, recordActivity } from "../organiser/activity.ts";
import { assertHostDoorsOpen, hostAccessEnded } from "../organiser/host-links.ts";
import { adminSessionOf, noStore } from "./admin-session.ts";
import type { Caller, CallerEnv } from "./caller.ts";
import { Forbidden, Unauthorized } from "./errors.ts";
import { hostSessionOf } from "./host-session.ts";
import { assertDoorDay, assertRole, eventRunsToday, ROLE_LABELS, roleOf, STAFF_ROLES, withRoles } from "./roles.ts";

/**
 * What requireStaff and staffFor answer, for a route's declared errors: no session (401), a host
 * whose link ended (401), a host of another event (403), a host before the doors open (403).
 */
export const STAFF_ERRORS = ["admin_session_required", "host_access_ended", "forbidden", "host_link_not_open"] as const;

/**
 * 401 unless the request carries an organiser session (the owner, a Manager or a Door member; 403
 * for Finance) or a live host session; a host whose link
 * was revoked or expired gets `host_access_ended`. Every answer behind it is no-store. It sets
 * `c.var.caller`. A route declares it through staffRoute (below), which also refuses a host another
 * event's data.
 */
export const requireStaff =
  (deps: AppDeps): MiddlewareHandler<CallerEnv> =>
  async (c, next) => {
    noStore(c);
    const session = adminSessionOf(c, deps);
    if (session) {
      // Finance has no door and no rounds; a Door member's day is checked with the event (staffScope).
      assertRole(session.person, STAFF_ROLES);
      c.set("caller", { role: "organiser", person: session.person, sessionId: session.sessionId });
    } else {
      const host = hostSessionOf(c, deps);
      if (host === "ended") throw hostAccessEnded();
      if (host === null) throw Unauthorized();
      // A host link opens the door and the rounds only from the doors-open time (it may be made earlier).
      assertHostDoorsOpen(deps.db, host.eventId, deps.now());
      c.set("caller", { role: "host", eventId: host.eventId, label: host.label, linkId: host.linkId });
    }
    await next();
    noStore(c);
  };

// The helpers below take Context<CallerEnv>: only a handler behind requireStaff or requireAdmin,
// which set `caller`, can pass its context to them (docs/decisions/024-who-is-calling.md).

/**
 * `c.var.caller`, which the types promise; a context typed loosely (`Context` is `any` inside) could
 * still arrive without it, and that is a 500, never a guess at who is calling. Behind staffRoute the
 * caller is already the organiser or a host of the request's event.
 */
export function callerOf(c: Context<CallerEnv>): Caller {
  const caller = c.var.caller as Caller | undefined;
  if (caller === undefined) throw new Error("no caller: the route has neither requireAdmin nor requireStaff");
  return caller;
}

/** The caller behind requireStaff or requireAdmin; 403 for a host asking about another event. */
export function staffFor(c: Context<CallerEnv>, eventId: number): Caller {
  const staff = callerOf(c);
  if (staff.role === "host" && staff.eventId !== eventId) {
    throw Forbidden("this host link is for another event");
  }
  return staff;
}

/** `organiser`, a member as `Priya (Finance)`, or the host link's label: the activity log's actor. */
export const actorOf = (c: Context<CallerEnv>) => actorName(callerOf(c));

/** Records a change in the activity log as the caller's; call it right after the change succeeds. */
export function logActivity(c: Context<CallerEnv>, deps: AppDeps, entry: Omit<ActivityInput, "actor" | "actorKind">) {
  const caller = callerOf(c);
  recordActivity(deps.db, { ...entry, actor: actorName(caller), actorKind: actorKindOf(caller) }, deps.now());
}

/**
 * The organiser (the owner, a Manager, or a Door member on the event's day), or a host of this event,
 * or null; for calls open to anyone that do more for staff (the door code's lookup and confirmation).
 */
export function staffOf(c: Context, deps: AppDeps, eventId: number): Caller | null {
  const session = adminSessionOf(c, deps);
  if (session) {
    const { person, sessionId } = session;
    if (!STAFF_ROLES.includes(roleOf(person))) return null;
    if (person.kind === "member" && person.role === "door" && !eventRunsToday(deps.db, eventId, deps.now()))
      return null;
    return { role: "organiser", person, sessionId };
  }
  const host = hostSessionOf(c, deps);
  return host !== null && host !== "ended" && host.eventId === eventId ? { role: "host", ...host } : null;
}

export const isStaffFor = (c: Context, deps: AppDeps, eventId: number) => staffOf(c, deps, eventId) !== null;

/**
 * The activity log's name for a caller: `organiser` for the owner, `Priya (Finance)` for a team
 * member (kept as written, so Activity still names a member after they are removed), or the host
 * link's label.
 */
export const actorName = (staff: Caller) => {
  if (staff.role === "host") return staff.label;
  const { person } = staff;
  return person.kind === "owner" ? ORGANISER : `${person.name} (${ROLE_LABELS[person.role]})`;
};

/** The activity log's kind for a caller: `organiser` (the owner), `member`, or `host`. */
export const actorKindOf = (staff: Caller): ActorKind =>
  staff.role === "host" ? "host" : staff.person.kind === "owner" ? "organiser" : "member";

/**
 * Whether the caller sees what the organiser's own views show (genders at every format, the ratings'
 * choices): the owner, a Manager or Finance. A Door member sees what a host sees: they stand at the
 * door like a standing host link (docs/decisions/050-the-team.md).
 */
export const seesAsOrganiser = (caller: Caller) =>
  caller.role === "organiser" && !(caller.person.kind === "member" && caller.person.role === "door");

/** Where a staff route's request names its event: a path parameter, or a field of the query or the JSON body. */
export type EventIdIn = { param: string } | { query: string } | { json: string };

/**
 * A call for the organiser or a host of its event (docs/decisions/022-host-access.md), declared
 * once on the route: requireStaff, then the event's scope, read where `eventIdIn` says, so a host of
 * another event gets 403 before the handler runs and no handler can forget it. The handler reads
 * its caller with `callerOf(c)`.
 *
 *     .openapi(staffRoute(deps, rosterRoute, { param: "id" }), (c) => { const caller = callerOf(c); … })
 */
export function staffRoute<R extends RouteConfig>(deps: AppDeps, route: R, eventIdIn: EventIdIn) {
  const middleware: [MiddlewareHandler<CallerEnv>, MiddlewareHandler<CallerEnv>] = [
    requireStaff(deps),
    staffScope(deps, route, eventIdIn),
  ];
  return { ...withRoles(route, "staff"), middleware };
}

/**
 * 403 for a host whose request names another event (staffFor), or a Door member on another day than
 * the event's (api/lib/roles.ts), after requireStaff. The id is read as the route's validator reads
 * it, with the route's own schema: a request that passes has its event checked here, before the
 * handler; one the schema refuses goes on to the validator's 400, as before.
 */
export function staffScope(deps: AppDeps, route: RouteConfig, eventIdIn: EventIdIn): MiddlewareHandler<CallerEnv> {
  return async (c, next) => {
    const eventId = await requestedEvent(c, route, eventIdIn);
    if (eventId !== undefined) {
      const caller = staffFor(c, eventId);
      if (caller.role === "organiser") assertDoorDay(deps.db, caller.person, eventId, deps.now());
    }
    await next();
  };
}

type Schema = { safeParse(value: unknown): { success: boolean; data?: unknown } };

async function requestedEvent(c: Context, route: RouteConfig, at: EventIdIn): Promise<number | undefined> {
  const request = route.request;
  let schema: Schema | undefined;
  let raw: unknown;
  let key: string;
  if ("param" in at) {
    [schema, raw, key] = [request?.params as Schema | undefined, c.req.param(), at.param];
  } else if ("query" in at) {
    // As Hono's validator reads a query: a name given twice is a list.
    const query = Object.entries(c.req.queries()).map(([k, v]) => [k, v.length === 1 ? v[0] : v]);
    [schema, raw, key] = [request?.query as Schema | undefined, Object.fromEntries(query), at.query];
  } else {
    // Hono keeps the parsed body: the route's validator reads this same promise.
    const media = request?.body?.content["application/json"];
    const body = media && "schema" in media ? (media.schema as Schema) : undefined;
    [schema, raw, key] = [body, await c.req.json().catch(() => undefined), at.json];
  }
  if (!schema) throw new Error(`staffRoute: ${route.method} ${route.path} has no schema for the event's id`);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return undefined;
  const id = (parsed.data as Record<string, unknown>)[key];
  // A request its schema accepts always names its event: anything else is a route declared wrongly.
  if (typeof id !== "number") throw new Error(`staffRoute: ${route.method} ${route.path} has no number at ${key}`);
  return id;
}
