import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { boundsOf, type FEWER_THAN_3, guests, type Period } from "./period.ts";

/**
 * **Invitations** (issue 51): each announcement made in the period (the Invite tab, issue 36), who
 * it reached by channel (texts and emails the outbox sent: not those suppressed for a withdrawn
 * consent or still waiting), and the paid bookings made through its link (`?a=`), by side.
 */
export type InvitationsRow = {
  announcementId: number;
  eventName: string;
  /** ISO 8601 UTC: when it was queued. */
  sentAt: string;
  reachedSms: number | typeof FEWER_THAN_3;
  reachedEmail: number | typeof FEWER_THAN_3;
  booked: number | typeof FEWER_THAN_3;
  bookedWomen: number | typeof FEWER_THAN_3;
  bookedMen: number | typeof FEWER_THAN_3;
};

export function invitationsReport(db: Db, period: Period): InvitationsRow[] {
  const { first, end } = boundsOf(period);
  // Messages and bookings are counted for the period's announcements only (`made`), each through its
  // index (bench/README.md, "Reports"), not over every announcement ever sent.
  const rows = db.all<{
    id: number;
    eventName: string;
    createdAt: number;
    sms: number;
    email: number;
    booked: number;
    women: number;
    men: number;
  }>(sql`
    with made as (select id from announcements where created_at >= ${first} and created_at < ${end})
    select a.id, e.name as eventName, a.created_at as createdAt,
      coalesce(reached.sms, 0) as sms, coalesce(reached.email, 0) as email,
      coalesce(booked.n, 0) as booked, coalesce(booked.women, 0) as women, coalesce(booked.men, 0) as men
    from announcements a
      join events e on e.id = a.event_id
      left join (
        select announcement_id,
          sum(case when channel = 'sms' then 1 else 0 end) as sms,
          sum(case when channel = 'email' then 1 else 0 end) as email
        from outbox_messages where announcement_id in (select id from made) and status = 'sent' group by announcement_id
      ) reached on reached.announcement_id = a.id
      left join (
        select b.announcement_id, count(*) as n,
          sum(case when u.gender = 'female' then 1 else 0 end) as women,
          sum(case when u.gender = 'male' then 1 else 0 end) as men
        from bookings b join users u on u.id = b.user_id
        where b.announcement_id in (select id from made) and b.status = 'paid' group by b.announcement_id
      ) booked on booked.announcement_id = a.id
    where a.id in (select id from made)
    order by a.created_at, a.id`);
  return rows.map((r) => ({
    announcementId: r.id,
    eventName: r.eventName,
    sentAt: new Date(r.createdAt).toISOString(),
    reachedSms: guests(r.sms),
    reachedEmail: guests(r.email),
    booked: guests(r.booked),
    bookedWomen: guests(r.women),
    bookedMen: guests(r.men),
  }));
}
