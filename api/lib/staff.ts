import type { Context, MiddlewareHandler } from "hono";
import type { AppDeps } from "../deps.ts";
import { type ActivityInput, ORGANISER, recordActivity } from "../organiser/activity.ts";
import { assertHostDoorsOpen, hostAccessEnded } from "../organiser/host-links.ts";
import { isAdmin, noStore } from "./admin-session.ts";
import type { Caller, CallerEnv } from "./caller.ts";
import { Forbidden, Unauthorized } from "./errors.ts";
import { hostSessionOf } from "./host-session.ts";

/**
 * What requireStaff and staffFor answer, for a route's declared errors: no session (401), a host
 * whose link ended (401), a host of another event (403), a host before the doors open (403).
 */
export const STAFF_ERRORS = ["admin_session_required", "host_access_ended", "forbidden", "host_link_not_open"] as const;

/**
 * 401 unless the request carries the organiser's session or a live host session; a host whose link
 * was revoked or expired gets `host_access_ended`. Every answer behind it is no-store. It sets
 * `c.var.caller`; the handler then calls `staffFor(c, eventId)`, which refuses a host another
 * event's data.
 *
 *     .openapi({ ...someNightRoute, middleware: staff }, (c) => { staffFor(c, c.req.valid("json").eventID); … })
 */
export const requireStaff =
  (deps: AppDeps): MiddlewareHandler<CallerEnv> =>
  async (c, next) => {
    noStore(c);
    if (isAdmin(c, deps)) {
      c.set("caller", { role: "organiser" });
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
 * still arrive without it, and that is a 500, never a guess at who is calling.
 */
function callerOf(c: Context<CallerEnv>): Caller {
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

/** `organiser`, or the host link's label: the activity log's actor. */
export const actorOf = (c: Context<CallerEnv>) => actorName(callerOf(c));

/** Records a change in the activity log as the caller's; call it right after the change succeeds. */
export function logActivity(c: Context<CallerEnv>, deps: AppDeps, entry: Omit<ActivityInput, "actor" | "actorKind">) {
  recordActivity(deps.db, { ...entry, actor: actorOf(c), actorKind: callerOf(c).role }, deps.now());
}

/**
 * The organiser, or a host of this event, or null; for calls open to anyone that do more for staff
 * (the door code's lookup and confirmation).
 */
export function staffOf(c: Context, deps: AppDeps, eventId: number): Caller | null {
  if (isAdmin(c, deps)) return { role: "organiser" };
  const host = hostSessionOf(c, deps);
  return host !== null && host !== "ended" && host.eventId === eventId ? { role: "host", ...host } : null;
}

export const isStaffFor = (c: Context, deps: AppDeps, eventId: number) => staffOf(c, deps, eventId) !== null;

/** The activity log's name for a caller: `organiser` or the host link's label. */
export const actorName = (staff: Caller) => (staff.role === "host" ? staff.label : ORGANISER);
