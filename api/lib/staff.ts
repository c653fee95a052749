import type { Context, MiddlewareHandler } from "hono";
import type { AppDeps } from "../deps.ts";
import { type ActivityInput, ORGANISER, recordActivity } from "../organiser/activity.ts";
import { assertHostDoorsOpen, hostAccessEnded } from "../organiser/host-links.ts";
import { isAdmin, noStore } from "./admin-session.ts";
import { Forbidden, Unauthorized } from "./errors.ts";
import { hostSessionOf } from "./host-session.ts";

/**
 * Who is calling a staff route (docs/decisions/022-host-access.md): the organiser, or a host signed
 * in through a host link for one event.
 */
export type Staff = { role: "organiser" } | { role: "host"; eventId: number; label: string; linkId: number };

// Set by requireStaff / requireAdmin for the handler behind them; keyed by the request, so nothing
// outlives it.
const callers = new WeakMap<Request, Staff>();

/**
 * 401 unless the request carries the organiser's session or a live host session; a host whose link
 * was revoked or expired gets `host_access_ended`. Every answer behind it is no-store. The handler
 * then calls `staffFor(c, eventId)`, which refuses a host another event's data.
 *
 *     .post("/some-night-call", staff, validate("json", body), (c) => { staffFor(c, body.eventID); ... })
 */
export const requireStaff =
  (deps: AppDeps): MiddlewareHandler =>
  async (c, next) => {
    noStore(c);
    if (isAdmin(c, deps)) {
      callers.set(c.req.raw, { role: "organiser" });
    } else {
      const host = hostSessionOf(c, deps);
      if (host === "ended") throw hostAccessEnded();
      if (host === null) throw Unauthorized();
      // A host link opens the door and the rounds only from the doors-open time (it may be made earlier).
      assertHostDoorsOpen(deps.db, host.eventId, deps.now());
      callers.set(c.req.raw, { role: "host", ...host });
    }
    await next();
    noStore(c);
  };

/** The caller behind requireStaff or requireAdmin; 403 for a host asking about another event. */
export function staffFor(c: Context, eventId: number): Staff {
  const staff = callerOf(c);
  if (staff.role === "host" && staff.eventId !== eventId) {
    throw Forbidden("this host link is for another event");
  }
  return staff;
}

function callerOf(c: Context): Staff {
  // requireAdmin does not record the caller; behind it, the caller is the organiser.
  return callers.get(c.req.raw) ?? { role: "organiser" };
}

/** `organiser`, or the host link's label: the activity log's actor. */
export const actorOf = (c: Context) => actorName(callerOf(c));

/** Records a change in the activity log as the caller's; call it right after the change succeeds. */
export function logActivity(c: Context, deps: AppDeps, entry: Omit<ActivityInput, "actor" | "actorKind">) {
  recordActivity(deps.db, { ...entry, actor: actorOf(c), actorKind: callerOf(c).role }, deps.now());
}

/**
 * The organiser, or a host of this event, or null; for calls open to anyone that do more for staff
 * (the door code's lookup and confirmation).
 */
export function staffOf(c: Context, deps: AppDeps, eventId: number): Staff | null {
  if (isAdmin(c, deps)) return { role: "organiser" };
  const host = hostSessionOf(c, deps);
  return host !== null && host !== "ended" && host.eventId === eventId ? { role: "host", ...host } : null;
}

export const isStaffFor = (c: Context, deps: AppDeps, eventId: number) => staffOf(c, deps, eventId) !== null;

/** The activity log's name for a caller: `organiser` or the host link's label. */
export const actorName = (staff: Staff) => (staff.role === "host" ? staff.label : ORGANISER);
