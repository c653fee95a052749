import { and, eq, gt, isNull } from "drizzle-orm";
import { adminSessions } from "../../db/team-schema.ts";
import type { AppDeps } from "../deps.ts";
import { endStreamsFor } from "../night/room-events.ts";

/**
 * Ends every live session of one person (a member's id, or null for the owner's password), and the
 * streams they opened: **Remove**, and **Sign out everywhere** (docs/decisions/050-the-team.md).
 * Answers how many sessions ended.
 */
export function endSessionsOf(deps: Pick<AppDeps, "db" | "now">, memberId: number | null): number {
  const now = deps.now();
  const whose = memberId === null ? isNull(adminSessions.memberId) : eq(adminSessions.memberId, memberId);
  const ended = deps.db
    .update(adminSessions)
    .set({ revokedAt: now })
    .where(and(whose, isNull(adminSessions.revokedAt), gt(adminSessions.expiresAt, now)))
    .returning({ id: adminSessions.id })
    .all();
  for (const { id } of ended) endStreamsFor(deps.db, { adminSession: id });
  return ended.length;
}
