import { eq } from "drizzle-orm";
import { utcToWallClock } from "../../common/time-zone.ts";
import type { DbOrTx } from "../../db/client.ts";
import { events } from "../../db/schema.ts";
import type { TeamRole } from "../../db/team-schema.ts";
import type { Person } from "./caller.ts";
import { Forbidden } from "./errors.ts";

// Roles (issue 49, docs/decisions/050-the-team.md): what each person of the organiser's team may do,
// declared once per route. An organiser-only route names its access in `requireAdmin(deps, access)`
// (the argument is required, so a route without a rule does not compile); a door-and-rounds route is
// a `staffRoute`, which opens to STAFF_ROLES and host links, a Door member on the event's day only.
// api/organiser/roles-matrix.test.ts walks every operation of the OpenAPI document × every role.

/** Everyone who may hold an organiser session: the owner (the password) and the three team roles. */
export type Role = "owner" | TeamRole;

/** The labels the admin pages show (issue 49, docs/guide/team.md). */
export const ROLE_LABELS: Record<Role, string> = {
  owner: "Owner",
  manager: "Manager",
  finance: "Finance",
  door: "Door",
};

export const roleOf = (person: Person): Role => (person.kind === "owner" ? "owner" : person.role);

/**
 * Who may make an organiser-only call, by name:
 * - `owner`: the team calls and the owner's own sign-in settings;
 * - `managers`: everything else the panel does (events, rounds set-up, host links, invitations…);
 * - `money`: refunds, invoices, a cancellation's refunds, the participants list and CSV, the guest
 *   detail a refund needs, and the summaries: Finance's work;
 * - `reads`: the event list and one event's settings, which any role needs to pick an event;
 * - `signedIn`: anyone with an organiser session (their own sign-out everywhere, the API reference).
 */
export const ACCESS = {
  owner: ["owner"],
  managers: ["owner", "manager"],
  money: ["owner", "manager", "finance"],
  reads: ["owner", "manager", "finance", "door"],
  signedIn: ["owner", "manager", "finance", "door"],
} as const satisfies Record<string, readonly Role[]>;
export type Access = keyof typeof ACCESS;

/** The organiser sessions a door-and-rounds call (staffRoute) opens to, besides a host of the event. */
export const STAFF_ROLES: readonly Role[] = ["owner", "manager", "door"];

/** The line a route's description gains from its rule, so the reference says what the code checks. */
export const rolesLine = (access: Access | "staff") =>
  access === "staff"
    ? "- **Roles:** Owner, Manager, Door (on the event's day); a host link's session for its own event. Finance: 403 `forbidden`."
    : `- **Roles:** ${ACCESS[access].map((role) => ROLE_LABELS[role]).join(", ")}; any other role: 403 \`forbidden\`.`;

/** A route's description with its roles' line added. */
export const withRoles = <R extends { description?: string }>(route: R, access: Access | "staff"): R => ({
  ...route,
  description: [route.description, rolesLine(access)].filter(Boolean).join("\n"),
});

/** 403 unless `person`'s role is among `allowed`. */
export function assertRole(person: Person, allowed: readonly Role[]): void {
  const role = roleOf(person);
  if (!allowed.includes(role)) throw Forbidden(`the ${ROLE_LABELS[role]} role does not open this`);
}

const HOUR = 3_600_000;
/** As a host link's: a night is still "today" this long after its planned end (api/organiser/host-links.ts). */
const DOOR_GRACE_MS = 6 * HOUR;

/**
 * Whether the event runs on `now`'s day, on the venue's clock, or is still within its host-link time
 * (a night past midnight): when a Door member may open its door and rounds, like a standing host link.
 */
export function eventRunsToday(db: DbOrTx, eventId: number, now: number): boolean {
  const event = db
    .select({ startsAt: events.startsAt, timeZone: events.timeZone, durationHours: events.durationHours })
    .from(events)
    .where(eq(events.id, eventId))
    .get();
  // An unknown event is the handler's 404, not a refusal.
  if (!event) return true;
  const sameDay = utcToWallClock(now, event.timeZone).date === utcToWallClock(event.startsAt, event.timeZone).date;
  const tonight = now >= event.startsAt && now <= event.startsAt + event.durationHours * HOUR + DOOR_GRACE_MS;
  return sameDay || tonight;
}

/** 403 for a Door member on another day than the event's (docs/decisions/050-the-team.md). */
export function assertDoorDay(db: DbOrTx, person: Person, eventId: number, now: number): void {
  if (person.kind === "member" && person.role === "door" && !eventRunsToday(db, eventId, now)) {
    throw Forbidden("a Door member opens an event's door and rounds on the day it runs");
  }
}
