import { sql } from "drizzle-orm";
import type { EventFormat } from "../../../common/formats.ts";
import type { Db } from "../../../db/client.ts";
import { boundsOf, type Period } from "./period.ts";

const DAY = 86_400_000;

/**
 * **Seats** (issue 51): each night starting in the period, its seats sold of those offered (by side
 * at a night with balanced rooms), the share sold, how many days it took from going on sale (the
 * event's creation) to its last seat, and which side filled last. Sold as the Overview counts it
 * (api/organiser/event-summary.ts: paid bookings), so the two agree for every night. A night sold
 * out when its paid bookings, in the order they were paid, reached its seats; a side when its own
 * did. Seat counts are the night's, not a person's, so they are shown as they are.
 */
export type SeatsRow = {
  eventId: number;
  eventName: string;
  /** ISO 8601 UTC. */
  startsAt: string;
  timeZone: string;
  format: EventFormat;
  status: string;
  seatsOffered: number;
  seatsSold: number;
  /** Null at a night with one pool of seats. */
  womenOffered: number | null;
  womenSold: number | null;
  menOffered: number | null;
  menSold: number | null;
  /** Whole percent of the seats offered that were sold. */
  sellThroughPercent: number;
  /** Days (one decimal) from going on sale to the last seat; null when it did not sell out. */
  daysToSellOut: number | null;
  /** The side whose last seat went last, at a balanced night where both filled; else null. */
  filledLast: "women" | "men" | null;
};

export function seatsReport(db: Db, period: Period): SeatsRow[] {
  const { first, end } = boundsOf(period);
  // One pass over each night's paid seats in the order they were paid (bookings_paid_event gives that
  // order): the running count of all seats and of each side says when the night, and each side,
  // filled; then one row a night. (Six lookups a night into the whole period's seats were 2 to 3
  // times slower over five years: bench/README.md, "Reports".)
  const rows = db.all<{
    id: number;
    name: string;
    startsAt: number;
    timeZone: string;
    format: EventFormat;
    status: string;
    createdAt: number;
    total: number;
    seatsMale: number | null;
    seatsFemale: number | null;
    sold: number;
    women: number;
    men: number;
    soldOutAt: number | null;
    womenFullAt: number | null;
    menFullAt: number | null;
  }>(sql`
    with ev as (select * from events where starts_at >= ${first} and starts_at < ${end}),
    paid as (
      select b.event_id, u.gender, b.paid_at,
        row_number() over running as n_all,
        sum(u.gender = 'female') over running as n_women,
        sum(u.gender = 'male') over running as n_men
      from bookings b join users u on u.id = b.user_id
      where b.status = 'paid' and b.event_id in (select id from ev)
      window running as (partition by b.event_id order by b.paid_at, b.id rows unbounded preceding)),
    per_night as (
      select paid.event_id, count(*) as sold,
        sum(paid.gender = 'female') as women, sum(paid.gender = 'male') as men,
        max(case when n_all = ev.total_seats then paid.paid_at end) as soldOutAt,
        max(case when paid.gender = 'female' and n_women = ev.seats_female then paid.paid_at end) as womenFullAt,
        max(case when paid.gender = 'male' and n_men = ev.seats_male then paid.paid_at end) as menFullAt
      from paid join ev on ev.id = paid.event_id group by paid.event_id)
    select ev.id, ev.name, ev.starts_at as startsAt, ev.time_zone as timeZone, ev.format, ev.status,
      ev.created_at as createdAt, ev.total_seats as total, ev.seats_male as seatsMale, ev.seats_female as seatsFemale,
      coalesce(n.sold, 0) as sold, coalesce(n.women, 0) as women, coalesce(n.men, 0) as men,
      n.soldOutAt, n.womenFullAt, n.menFullAt
    from ev left join per_night n on n.event_id = ev.id order by ev.starts_at, ev.id`);
  return rows.map((r) => {
    const balanced = r.seatsMale !== null && r.seatsFemale !== null;
    return {
      eventId: r.id,
      eventName: r.name,
      startsAt: new Date(r.startsAt).toISOString(),
      timeZone: r.timeZone,
      format: r.format,
      status: r.status,
      seatsOffered: r.total,
      seatsSold: r.sold,
      womenOffered: balanced ? r.seatsFemale : null,
      womenSold: balanced ? r.women : null,
      menOffered: balanced ? r.seatsMale : null,
      menSold: balanced ? r.men : null,
      sellThroughPercent: r.total > 0 ? Math.round((100 * r.sold) / r.total) : 0,
      daysToSellOut: r.soldOutAt === null ? null : Math.round((10 * (r.soldOutAt - r.createdAt)) / DAY) / 10,
      filledLast:
        balanced && r.womenFullAt !== null && r.menFullAt !== null
          ? r.womenFullAt > r.menFullAt
            ? "women"
            : "men"
          : null,
    };
  });
}
