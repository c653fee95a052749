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
  // Each pair once (bench/README.md, "Reports"): a night's Date and Friend choices grouped by the pair's
  // lower and higher attendee, in the order of the feedback_pair index (so no sort: grouping by the
  // night's start and id follows the nights as `ev` reads them), a pair that chose each other both
  // ways is a match, mutual when both chose Date. Both must still hold a paid seat (bookings_paid_user).
  // Then each guest's share of the matches, each night's and each format's: the same counts as
  // pairing every choice with its answer, three to four times faster over five years.
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
    with ev as (
      select id, format, starts_at from events where status = 'ended' and starts_at >= ${first} and starts_at < ${end}),
    paid as (select event_id, user_id, came from bookings where status = 'paid' and event_id in (select id from ev)),
    pairs as (
      select f.event_id, min(f.from_user_id, f.to_user_id) as a, max(f.from_user_id, f.to_user_id) as b,
        sum(f.value = 'like') = 2 as mutual
      from ev join feedback f on f.event_id = ev.id
      where f.value in ('like', 'friend')
      group by ev.starts_at, ev.id, min(f.from_user_id, f.to_user_id), max(f.from_user_id, f.to_user_id)
      having count(*) = 2),
    matched as materialized (
      select pr.event_id, pr.a, pr.b, pr.mutual, pa.came as a_came, pb.came as b_came
      from pairs pr
        cross join paid pa on pa.user_id = pr.a and pa.event_id = pr.event_id
        cross join paid pb on pb.user_id = pr.b and pb.event_id = pr.event_id),
    halves as (
      select event_id, a as user_id, a_came as came, mutual from matched
      union all select event_id, b, b_came, mutual from matched),
    per_guest as (
      select event_id, came, sum(mutual) as m, sum(1 - mutual) as fr from halves group by event_id, user_id),
    per_night as (
      select event_id, sum(m) as m, sum(fr) as fr,
        sum(case when came then m else 0 end) as mutualOfCame, sum(case when came then fr else 0 end) as friendsOfCame,
        sum(case when came and m > 0 then 1 else 0 end) as withMutual,
        sum(case when came and fr > 0 then 1 else 0 end) as withFriend
      from per_guest group by event_id),
    came as (select event_id, sum(case when came then 1 else 0 end) as n from paid group by event_id)
    select ev.format, count(*) as nights,
      coalesce(sum(c.n), 0) as guests,
      coalesce(sum(pn.m), 0) as mutual, coalesce(sum(pn.fr), 0) as friends,
      coalesce(sum(pn.mutualOfCame), 0) as mutualOfCame,
      coalesce(sum(pn.friendsOfCame), 0) as friendsOfCame,
      coalesce(sum(pn.withMutual), 0) as withMutual,
      coalesce(sum(pn.withFriend), 0) as withFriend
    from ev left join came c on c.event_id = ev.id left join per_night pn on pn.event_id = ev.id
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
