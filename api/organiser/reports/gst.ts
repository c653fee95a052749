import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { bucketRows, type Period, quarterLabel, quartersOf } from "./period.ts";

/**
 * **The GST summary for the BAS** (issue 51, part 2), per quarter of the Australian financial year:
 * G1, total sales (GST included), and 1A, the GST on them, with each refund taken off in the quarter
 * it was made (a decreasing adjustment), as the ATO asks. Sales and refunds as the money report
 * counts them; GST from the receipts, tax invoices and adjustment notes (their own rounding). A
 * summary for the organiser's accountant: nothing here is lodged anywhere.
 */
export type GstRow = {
  quarter: string;
  label: string;
  salesCents: number;
  refundsCents: number;
  g1Cents: number;
  gstOnSalesCents: number;
  gstOnRefundsCents: number;
  a1Cents: number;
};

export const GST_SUMMARY_NOTE =
  "A summary for your accountant: it is not a BAS and is not lodged anywhere. G1 is total sales including GST, 1A the GST on sales; refunds are taken off in the quarter they were made.";

export function gstReport(db: Db, period: Period): GstRow[] {
  const rows = db.all<{
    quarter: string;
    salesCents: number;
    refundsCents: number;
    gstOnSalesCents: number;
    gstOnRefundsCents: number;
  }>(sql`
    with bucket(key, start_ms, end_ms) as (values ${bucketRows(quartersOf(period))}),
    sales as (
      select bucket.key, sum(b.amount_cents) as cents
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
    select bucket.key as quarter,
      coalesce(sales.cents, 0) as salesCents,
      coalesce(refunded.cents, 0) as refundsCents,
      coalesce(gst.sales, 0) as gstOnSalesCents,
      coalesce(gst.refunds, 0) as gstOnRefundsCents
    from bucket
      left join sales on sales.key = bucket.key
      left join refunded on refunded.key = bucket.key
      left join gst on gst.key = bucket.key
    order by bucket.key`);
  return rows.map((r) => ({
    quarter: r.quarter,
    label: quarterLabel(r.quarter),
    salesCents: r.salesCents,
    refundsCents: r.refundsCents,
    g1Cents: r.salesCents - r.refundsCents,
    gstOnSalesCents: r.gstOnSalesCents,
    gstOnRefundsCents: r.gstOnRefundsCents,
    a1Cents: r.gstOnSalesCents - r.gstOnRefundsCents,
  }));
}
