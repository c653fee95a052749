import type { Db } from "../../../db/client.ts";
import { moneyByBucket } from "./money.ts";
import { type Period, quarterLabel, quartersOf } from "./period.ts";

/**
 * **The GST summary for the BAS** (issue 51, part 2), per quarter of the Australian financial year:
 * G1, total sales (GST included), and 1A, the GST on them, with each refund taken off in the quarter
 * it was made (a decreasing adjustment), as the ATO asks. Sales and refunds as the money report
 * counts them (one statement, moneyByBucket); GST from the receipts, tax invoices and adjustment notes. A
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

// The line the desk shows under the summary: its text lives in common/, where the PWA reads it too.
export { GST_SUMMARY_NOTE } from "../../../common/gst-summary.ts";

export function gstReport(db: Db, period: Period): GstRow[] {
  return moneyByBucket(db, quartersOf(period)).map((r) => ({
    quarter: r.key,
    label: quarterLabel(r.key),
    salesCents: r.salesCents,
    refundsCents: r.refundsCents,
    g1Cents: r.salesCents - r.refundsCents,
    gstOnSalesCents: r.gstOnSalesCents,
    gstOnRefundsCents: r.gstOnRefundsCents,
    a1Cents: r.gstOnSalesCents - r.gstOnRefundsCents,
  }));
}
