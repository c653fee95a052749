import { sql } from "drizzle-orm";
import type { EventFormat } from "../../../common/formats.ts";
import type { Db } from "../../../db/client.ts";
import { boundsOf, type FEWER_THAN_3, guests, type Period } from "./period.ts";

/**
 * **Nights** (issue 51): each night that ended, starting in the period: who paid, who came (by the
 * one rule of api/night/attendance.ts, written down when the night ended), the no-shows, the guests
 * who left early (the host's **Left**), and the dates a guest who came had on average (partners met
 * in the rounds; null at a night run without them). Paid and came are the night's own counts, as its
 * Overview shows them; no-shows and early leavers of 1 or 2 show `fewer than 3`.
 */
export type NightsRow = {
  eventId: number;
  eventName: string;
  /** ISO 8601 UTC. */
  startsAt: string;
  format: EventFormat;
  paid: number;
  came: number;
  noShows: number | typeof FEWER_THAN_3;
  leftEarly: number | typeof FEWER_THAN_3;
  /** Whole percent of those who paid who came. */
  showUpPercent: number;
  /** One decimal; null when the night ran without the rounds. */
  averageDates: number | null;
};

export function nightsReport(db: Db, period: Period): NightsRow[] {
  const { first, end } = boundsOf(period);
  const rows = db.all<{
    id: number;
    name: string;
    startsAt: number;
    format: EventFormat;
    paid: number;
    came: number;
    leftEarly: number;
    averageDates: number | null;
  }>(sql`
    select e.id, e.name, e.starts_at as startsAt, e.format,
      count(b.id) as paid,
      coalesce(sum(case when b.came then 1 else 0 end), 0) as came,
      coalesce(sum(case when b.came and b.left_at is not null then 1 else 0 end), 0) as leftEarly,
      avg(case when b.came then b.dates end) as averageDates
    from events e left join bookings b on b.event_id = e.id and b.status = 'paid'
    where e.status = 'ended' and e.starts_at >= ${first} and e.starts_at < ${end}
    group by e.id order by e.starts_at, e.id`);
  return rows.map((r) => ({
    eventId: r.id,
    eventName: r.name,
    startsAt: new Date(r.startsAt).toISOString(),
    format: r.format,
    paid: r.paid,
    came: r.came,
    noShows: guests(r.paid - r.came),
    leftEarly: guests(r.leftEarly),
    showUpPercent: r.paid > 0 ? Math.round((100 * r.came) / r.paid) : 0,
    averageDates: r.averageDates === null ? null : Math.round(r.averageDates * 10) / 10,
  }));
}
