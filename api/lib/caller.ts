import type { TeamRole } from "../../db/team-schema.ts";

/**
 * The person behind an organiser session (docs/decisions/050-the-team.md): the owner (the
 * ADMIN_PASSWORD's sign-in, `admin_sessions.member_id` null) or a team member with their role.
 */
export type Person = { kind: "owner" } | { kind: "member"; id: number; name: string; role: TeamRole };

/**
 * Who is calling a route behind requireAdmin or requireStaff (docs/decisions/024-who-is-calling.md):
 * an organiser session (the owner or a team member, `person`; `sessionId` is the session's row), or a
 * host signed in through a host link for one event (docs/decisions/022-host-access.md).
 */
export type Caller =
  | { role: "organiser"; person: Person; sessionId: string }
  | { role: "host"; eventId: number; label: string; linkId: number };

/**
 * What requireAdmin and requireStaff add to a route: `c.var.caller`. A helper that needs the caller
 * takes `Context<CallerEnv>`, so a handler whose chain has neither middleware fails to compile
 * instead of answering as someone.
 */
export type CallerEnv = { Variables: { caller: Caller } };
