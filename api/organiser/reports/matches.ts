import { sql } from "drizzle-orm";
import type { EventFormat } from "../../../common/formats.ts";
import type { Db } from "../../../db/client.ts";
import { boundsOf, type Period } from "./period.ts";

/**
 * **Matches** by format (issue 51): over the nights that ended, starting in the period, how many
 * guests came, the mutual matches (Date both ways) and friend matches (Date or Friend both ways, not
 * both Date), each pair once, with both still holding a paid seat (api/night/results.ts counts them
 * so), and per guest who came: matches on average and the share who had at least one. Rates, not
 * people: no count here singles anyone out.
 */
export type MatchesRow = {
  format: EventFormat;
  nights: number;
  guestsCame: number;
  mutualMatches: number;
  friendMatches: number;
  /** Mutual matches a guest who came had on average (one decimal). */
  mutualPerGuest: number;
  friendPerGuest: number;
  /** Whole percent of guests who came with at least one mutual (friend) match. */
  withMutualPercent: number;
  withFriendPercent: number;
};

export function matchesReport(db: Db, period: Period): MatchesRow[] {
  const { first, end } = boundsOf(period);
  const rows = db.all<{
    format: EventFormat;
    nights: number;
    guests: number;
    mutual: number;
    friends: number;
    mutualOfCame: number;
    friendsOfCame: number;
    withMutual: number;
    withFriend: number;
  }>(sql`
    with ev as (select id, format from events where status = 'ended' and starts_at >= ${first} and starts_at < ${end}),
    paid as (select event_id, user_id, came from bookings where status = 'paid' and event_id in (select id from ev)),
    warm as (
      select f.event_id, f.from_user_id as a, f.to_user_id as b, f.value as v
      from feedback f
        join paid p1 on p1.event_id = f.event_id and p1.user_id = f.from_user_id
        join paid p2 on p2.event_id = f.event_id and p2.user_id = f.to_user_id
      where f.value in ('like', 'friend') and f.event_id in (select id from ev)),
    halves as (
      select w.event_id, w.a as user_id,
        case when w.v = 'like' and back.v = 'like' then 1 else 0 end as mutual,
        case when w.v = 'like' and back.v = 'like' then 0 else 1 end as friend
      from warm w join warm back on back.event_id = w.event_id and back.a = w.b and back.b = w.a),
    per_guest as (
      select p.event_id, p.user_id, p.came, coalesce(sum(h.mutual), 0) as m, coalesce(sum(h.friend), 0) as fr
      from paid p left join halves h on h.event_id = p.event_id and h.user_id = p.user_id
      group by p.event_id, p.user_id)
    select ev.format, count(distinct ev.id) as nights,
      coalesce(sum(case when pg.came then 1 else 0 end), 0) as guests,
      coalesce(sum(pg.m), 0) as mutual, coalesce(sum(pg.fr), 0) as friends,
      coalesce(sum(case when pg.came then pg.m else 0 end), 0) as mutualOfCame,
      coalesce(sum(case when pg.came then pg.fr else 0 end), 0) as friendsOfCame,
      coalesce(sum(case when pg.came and pg.m > 0 then 1 else 0 end), 0) as withMutual,
      coalesce(sum(case when pg.came and pg.fr > 0 then 1 else 0 end), 0) as withFriend
    from ev left join per_guest pg on pg.event_id = ev.id
    group by ev.format order by ev.format`);
  const per = (n: number, of: number) => (of > 0 ? Math.round((10 * n) / of) / 10 : 0);
  const percent = (n: number, of: number) => (of > 0 ? Math.round((100 * n) / of) : 0);
  return rows.map((r) => ({
    format: r.format,
    nights: r.nights,
    guestsCame: r.guests,
    // Each match is counted from both its guests above: a pair is two halves.
    mutualMatches: r.mutual / 2,
    friendMatches: r.friends / 2,
    mutualPerGuest: per(r.mutualOfCame, r.guests),
    friendPerGuest: per(r.friendsOfCame, r.guests),
    withMutualPercent: percent(r.withMutual, r.guests),
    withFriendPercent: percent(r.withFriend, r.guests),
  }));
}
