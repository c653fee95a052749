import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, adminRoute } from "../lib/admin-session.ts";
import { BadRequest } from "../lib/errors.ts";
import { apiRouter, errors, z } from "../lib/openapi.ts";
import { type Column, dollars, reportCsv } from "./reports/csv.ts";
import { type GstRow, gstReport } from "./reports/gst.ts";
import { type MoneyRow, moneyReport } from "./reports/money.ts";
import { MONTH, periodOf, periodProblem } from "./reports/period.ts";

// The organiser's reports (issue 51): `GET /api/reports/{name}?from=YYYY-MM&to=YYYY-MM`, `{rows}` or,
// with `&format=csv`, the same rows as a spreadsheet. Counts and money only: no name, phone, email or
// photo. Each report is one SQL query in its own file beside this one.

const query = z.object({
  from: z.string().regex(MONTH).openapi({ example: "2026-07", description: "The first month, `YYYY-MM`." }),
  to: z.string().regex(MONTH).openapi({ example: "2026-09", description: "The last month, `YYYY-MM` (included)." }),
  format: z.enum(["json", "csv"]).optional().openapi({ description: "`csv` for the spreadsheet (an attachment)." }),
});

const cents = () => z.number().int();

const moneyRow = z.strictObject({
  month: z.string(),
  bookings: z.number().int(),
  grossCents: cents(),
  refundsCents: cents(),
  netCents: cents(),
  gstCents: cents(),
});

const gstRow = z.strictObject({
  quarter: z.string(),
  label: z.string(),
  salesCents: cents(),
  refundsCents: cents(),
  g1Cents: cents(),
  gstOnSalesCents: cents(),
  gstOnRefundsCents: cents(),
  a1Cents: cents(),
});

/** A report's 200: its rows as JSON, or the CSV attachment. */
const reportReply = <T extends z.ZodType>(row: T) => ({
  description: "The report's rows; with `format=csv`, the same rows as `text/csv` (an attachment).",
  content: {
    "application/json": { schema: z.strictObject({ rows: z.array(row) }) },
    "text/csv": { schema: z.string().openapi({ format: "binary" }) },
  },
});

const REPORT_ERRORS = [...ADMIN_ERRORS, "invalid_request"] as const;
const period = [
  "- **Who:** organiser session.",
  "- **Query:** `from` and `to`, months as `YYYY-MM` on the business's clock (`EVENT_TIME_ZONE`), both",
  "  included, at most 120 months; `format=csv` for the spreadsheet. 400 `invalid_request` otherwise.",
];

const moneyRoute = createRoute({
  method: "get",
  path: "/reports/money",
  summary: "Money by month: ticket sales, refunds, net and GST",
  description: [
    ...period,
    "- **200:** `{rows: [{month, bookings, grossCents, refundsCents, netCents, gstCents}]}`, one per month:",
    "  what was paid for tickets in the month (paid or later refunded bookings with a payment), refunds",
    "  made in it, the difference, and the GST of the receipts and tax invoices issued in it less their",
    "  adjustment notes' (0 when not registered). CSV: `month,bookings,gross,refunds,net,gst`, dollars.",
  ].join("\n"),
  request: { query },
  responses: { 200: reportReply(moneyRow), ...errors("get", REPORT_ERRORS) },
});

const gstRoute = createRoute({
  method: "get",
  path: "/reports/gst",
  summary: "The GST summary for the BAS, per quarter",
  description: [
    ...period,
    "- **200:** `{rows: [{quarter, label, salesCents, refundsCents, g1Cents, gstOnSalesCents,",
    "  gstOnRefundsCents, a1Cents}]}`, one per quarter of the financial year the period touches (whole",
    "  quarters: `2026-07` is `Jul–Sep 2026`): G1 total sales including GST and 1A the GST on them, each",
    "  refund taken off in the quarter it was made. A summary for the organiser's accountant, not lodged",
    "  anywhere. CSV: `quarter,sales,refunds,G1,gst_on_sales,gst_on_refunds,1A`, dollars.",
  ].join("\n"),
  request: { query },
  responses: { 200: reportReply(gstRow), ...errors("get", REPORT_ERRORS) },
});

const MONEY_COLUMNS: Column<MoneyRow>[] = [
  { header: "month", cell: (r) => r.month },
  { header: "bookings", cell: (r) => r.bookings },
  { header: "gross", cell: (r) => dollars(r.grossCents) },
  { header: "refunds", cell: (r) => dollars(r.refundsCents) },
  { header: "net", cell: (r) => dollars(r.netCents) },
  { header: "gst", cell: (r) => dollars(r.gstCents) },
];

const GST_COLUMNS: Column<GstRow>[] = [
  { header: "quarter", cell: (r) => r.label },
  { header: "sales", cell: (r) => dollars(r.salesCents) },
  { header: "refunds", cell: (r) => dollars(r.refundsCents) },
  { header: "G1", cell: (r) => dollars(r.g1Cents) },
  { header: "gst_on_sales", cell: (r) => dollars(r.gstOnSalesCents) },
  { header: "gst_on_refunds", cell: (r) => dollars(r.gstOnRefundsCents) },
  { header: "1A", cell: (r) => dollars(r.a1Cents) },
];

/** The period of a valid query, or a 400 saying what is wrong with it. */
function periodFrom(deps: AppDeps, q: { from: string; to: string }) {
  const problem = periodProblem(q.from, q.to);
  if (problem) throw BadRequest(problem);
  return periodOf(q.from, q.to, deps.env.EVENT_TIME_ZONE);
}

const csvHeaders = (name: string, q: { from: string; to: string }) => ({
  "content-type": "text/csv; charset=utf-8",
  "content-disposition": `attachment; filename="${name}-${q.from}-to-${q.to}.csv"`,
  "cache-control": "no-store",
});

export const reportsRoutes = (deps: AppDeps) =>
  apiRouter()
    .openapi(adminRoute(deps, moneyRoute, "money"), (c) => {
      const q = c.req.valid("query");
      const rows = moneyReport(deps.db, periodFrom(deps, q));
      if (q.format === "csv") return c.body(reportCsv(MONEY_COLUMNS, rows), 200, csvHeaders("money", q));
      return c.json({ rows }, 200, { "cache-control": "no-store" });
    })
    .openapi(adminRoute(deps, gstRoute, "money"), (c) => {
      const q = c.req.valid("query");
      const rows = gstReport(deps.db, periodFrom(deps, q));
      if (q.format === "csv") return c.body(reportCsv(GST_COLUMNS, rows), 200, csvHeaders("gst", q));
      return c.json({ rows }, 200, { "cache-control": "no-store" });
    });
