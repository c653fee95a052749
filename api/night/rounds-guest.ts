import { inArray } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { assertLink, participantOf } from "./feedback.ts";
import type { myRoundsView } from "./night-schemas.ts";
import { roundsAt } from "./rounds.ts";
import { shownPhaseEnd } from "./rounds-clock.ts";

/**
 * The guest's view of the night (POST /api/my-rounds), opened with the start link's token like the
 * partners page: the same 403s. Phones poll it while online and keep the last answer for offline use
 * (docs/decisions/019-running-the-night.md).
 */

/** The guest's night: its schema's type (night-schemas.ts). */
export type MyRoundsView = z.output<typeof myRoundsView>;
export type MyRound = MyRoundsView["schedule"][number];

type Ctx = { db: Db; env: Pick<Env, "SESSION_SECRET"> };

export function myRounds(
  ctx: Ctx,
  input: { eventId: number; userId: number; token: unknown },
  now: number,
): MyRoundsView {
  assertLink(ctx, "start", input.userId, input.eventId, input.token);
  participantOf(ctx.db, input.userId, input.eventId);
  const serverNow = new Date(now).toISOString();
  const night = roundsAt(ctx.db, input.eventId, now);
  if (!night) {
    return {
      status: "none",
      current: null,
      phase: null,
      phaseEndsAt: null,
      serverNow,
      schedule: [],
      announcement: null,
    };
  }

  const mine: { round: number; table: number | null; partnerId: number | null }[] = [];
  for (const round of night.rounds) {
    const pair = round.pairs.find((p) => p.femaleID === input.userId || p.maleID === input.userId);
    if (pair) {
      mine.push({
        round: round.round,
        table: pair.table,
        partnerId: pair.femaleID === input.userId ? pair.maleID : pair.femaleID,
      });
    } else if (round.sitOut.includes(input.userId)) {
      mine.push({ round: round.round, table: null, partnerId: null });
    }
  }
  const ids = mine.flatMap((r) => (r.partnerId === null ? [] : [r.partnerId]));
  const partners = new Map(
    (ids.length === 0
      ? []
      : ctx.db
          .select({ id: users.id, username: users.name, image_name: users.thumbName })
          .from(users)
          .where(inArray(users.id, ids))
          .all()
    ).map((p) => [p.id, p]),
  );
  const phaseEnd = shownPhaseEnd(night.clock, now);
  return {
    status: night.clock.status,
    current: night.clock.current,
    phase: night.clock.phase,
    phaseEndsAt: phaseEnd === null ? null : new Date(phaseEnd).toISOString(),
    serverNow,
    schedule: mine.map(({ round, table, partnerId }) => ({
      round,
      table,
      partner: partnerId === null ? null : (partners.get(partnerId) ?? null),
    })),
    announcement: night.announcement,
  };
}
