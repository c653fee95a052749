import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { type Bucket, bucketRows, type Period } from "./period.ts";

/**
 * **Money**, by month (issue 51): what was paid for tickets, what was refunded, the difference, and
 * the GST in it. Paid and refunded as the desk counts them (api/organiser/event-summary.ts: a paid or
 * later refunded booking with a payment, less its refunds), each in the month it happened: a refund
 * in the month it was made, not the month of the sale. GST is the receipts' and tax invoices' own
 * (api/booking/documents.ts: 1/11 of each, to the nearest cent, less their adjustment notes'), so the
 * report and the documents agree to the cent; 0 when not registered for GST.
 */
export type MoneyRow = {
  month: string;
  bookings: number;
  grossCents: number;
  refundsCents: number;
  netCents: number;
  gstCents: number;
};

/** Sales, refunds and the documents' GST in each bucket (a month, or the GST summary's quarter): one statement. */
export function moneyByBucket(db: Db, buckets: Bucket[]) {
  return db.all<{
    key: string;
    bookings: number;
    salesCents: number;
    refundsCents: number;
    gstOnSalesCents: number;
    gstOnRefundsCents: number;
  }>(sql`
    with bucket(key, start_ms, end_ms) as (values ${bucketRows(buckets)}),
    sales as (
      select bucket.key, count(*) as n, sum(b.amount_cents) as cents
      from bucket join bookings b on b.paid_at >= bucket.start_ms and b.paid_at < bucket.end_ms
      where b.status in ('paid', 'refunded') and b.payment_intent_id is not null
      group by bucket.key),
    refunded as (
      select bucket.key, sum(r.amount_cents) as cents
      from bucket join refunds r on r.created_at >= bucket.start_ms and r.created_at < bucket.end_ms
      group by bucket.key),
    gst as (
      select bucket.key,
        sum(case when d.kind <> 'adjustment' then d.gst_cents else 0 end) as sales,
        sum(case when d.kind = 'adjustment' then d.gst_cents else 0 end) as refunds
      from bucket join documents d on d.issued_at >= bucket.start_ms and d.issued_at < bucket.end_ms
      group by bucket.key)
    select bucket.key as key,
      coalesce(sales.n, 0) as bookings,
      coalesce(sales.cents, 0) as salesCents,
      coalesce(refunded.cents, 0) as refundsCents,
      coalesce(gst.sales, 0) as gstOnSalesCents,
      coalesce(gst.refunds, 0) as gstOnRefundsCents
    from bucket
      left join sales on sales.key = bucket.key
      left join refunded on refunded.key = bucket.key
      left join gst on gst.key = bucket.key
    order by bucket.key`);
}

export function moneyReport(db: Db, period: Period): MoneyRow[] {
  return moneyByBucket(db, period.months).map((r) => ({
    month: r.key,
    bookings: r.bookings,
    grossCents: r.salesCents,
    refundsCents: r.refundsCents,
    netCents: r.salesCents - r.refundsCents,
    gstCents: r.gstOnSalesCents - r.gstOnRefundsCents,
  }));
}
