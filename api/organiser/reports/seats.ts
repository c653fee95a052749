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
        row_number() over (partition by b.event_id order by b.paid_at, b.id) as n_all,
        row_number() over (partition by b.event_id, u.gender order by b.paid_at, b.id) as n_side
      from bookings b join users u on u.id = b.user_id
      where b.status = 'paid' and b.event_id in (select id from ev))
    select ev.id, ev.name, ev.starts_at as startsAt, ev.time_zone as timeZone, ev.format, ev.status,
      ev.created_at as createdAt, ev.total_seats as total, ev.seats_male as seatsMale, ev.seats_female as seatsFemale,
      (select count(*) from paid where paid.event_id = ev.id) as sold,
      (select count(*) from paid where paid.event_id = ev.id and paid.gender = 'female') as women,
      (select count(*) from paid where paid.event_id = ev.id and paid.gender = 'male') as men,
      (select paid_at from paid where paid.event_id = ev.id and n_all = ev.total_seats) as soldOutAt,
      (select paid_at from paid where paid.event_id = ev.id and paid.gender = 'female' and n_side = ev.seats_female) as womenFullAt,
      (select paid_at from paid where paid.event_id = ev.id and paid.gender = 'male' and n_side = ev.seats_male) as menFullAt
    from ev order by ev.starts_at, ev.id`);
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
