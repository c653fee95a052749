/**
 * Who is calling a route behind requireAdmin or requireStaff (docs/decisions/024-who-is-calling.md):
 * the organiser, or a host signed in through a host link for one event
 * (docs/decisions/022-host-access.md).
 */
export type Caller = { role: "organiser" } | { role: "host"; eventId: number; label: string; linkId: number };

/**
 * What requireAdmin and requireStaff add to a route: `c.var.caller`. A helper that needs the caller
 * takes `Context<CallerEnv>`, so a handler whose chain has neither middleware fails to compile
 * instead of answering as someone.
 */
export type CallerEnv = { Variables: { caller: Caller } };
