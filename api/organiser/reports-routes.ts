import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, adminRoute } from "../lib/admin-session.ts";
import { BadRequest } from "../lib/errors.ts";
import { apiRouter, errors, z } from "../lib/openapi.ts";
import { type Column, dollars, reportCsv } from "./reports/csv.ts";
import { type GstRow, gstReport } from "./reports/gst.ts";
import { type InvitationsRow, invitationsReport } from "./reports/invitations.ts";
import { type MatchesRow, matchesReport } from "./reports/matches.ts";
import { type MoneyRow, moneyReport } from "./reports/money.ts";
import { type NightsRow, nightsReport } from "./reports/nights.ts";
import { FEWER_THAN_3, MONTH, type Period, periodOf, periodProblem } from "./reports/period.ts";
import { PRICE_GROUPS, type PricesRow, pricesReport } from "./reports/prices.ts";
import { type ReturningRow, returningReport } from "./reports/returning.ts";
import { type SeatsRow, seatsReport } from "./reports/seats.ts";

// The organiser's reports (issue 51): `GET /api/reports/{name}?from=YYYY-MM&to=YYYY-MM`, `{rows}` or,
// with `&format=csv`, the same rows as a spreadsheet. Counts and money only: no name, phone, email or
// photo, and a count of 1 or 2 guests shows `fewer than 3`. Each report is one SQL statement in its
// own file under reports/; this file declares the calls and the CSV columns.

const query = z.object({
  from: z.string().regex(MONTH).openapi({ example: "2026-07", description: "The first month, `YYYY-MM`." }),
  to: z.string().regex(MONTH).openapi({ example: "2026-09", description: "The last month, `YYYY-MM` (included)." }),
  format: z.enum(["json", "csv"]).optional().openapi({ description: "`csv` for the spreadsheet (an attachment)." }),
});

const cents = () => z.number().int();
const guestCount = () => z.union([z.number().int(), z.literal(FEWER_THAN_3)]);

const ROWS = {
  money: z.strictObject({
    month: z.string(),
    bookings: z.number().int(),
    grossCents: cents(),
    refundsCents: cents(),
    netCents: cents(),
    gstCents: cents(),
  }),
  gst: z.strictObject({
    quarter: z.string(),
    label: z.string(),
    salesCents: cents(),
    refundsCents: cents(),
    g1Cents: cents(),
    gstOnSalesCents: cents(),
    gstOnRefundsCents: cents(),
    a1Cents: cents(),
  }),
  seats: z.strictObject({
    eventId: z.number().int(),
    eventName: z.string(),
    startsAt: z.string(),
    timeZone: z.string(),
    format: z.enum(["women_men", "one_group", "mixed"]),
    status: z.string(),
    seatsOffered: z.number().int(),
    seatsSold: z.number().int(),
    womenOffered: z.number().int().nullable(),
    womenSold: z.number().int().nullable(),
    menOffered: z.number().int().nullable(),
    menSold: z.number().int().nullable(),
    sellThroughPercent: z.number().int(),
    daysToSellOut: z.number().nullable(),
    filledLast: z.enum(["women", "men"]).nullable(),
  }),
  nights: z.strictObject({
    eventId: z.number().int(),
    eventName: z.string(),
    startsAt: z.string(),
    format: z.enum(["women_men", "one_group", "mixed"]),
    paid: z.number().int(),
    came: z.number().int(),
    noShows: guestCount(),
    leftEarly: guestCount(),
    showUpPercent: z.number().int(),
    averageDates: z.number().nullable(),
  }),
  matches: z.strictObject({
    format: z.enum(["women_men", "one_group", "mixed"]),
    nights: z.number().int(),
    guestsCame: z.number().int(),
    mutualMatches: z.number(),
    friendMatches: z.number(),
    mutualPerGuest: z.number(),
    friendPerGuest: z.number(),
    withMutualPercent: z.number().int(),
    withFriendPercent: z.number().int(),
  }),
  returning: z.strictObject({
    month: z.string(),
    bookings: z.number().int(),
    byReturningGuests: guestCount(),
    returningPercent: z.number().int(),
    secondNight: guestCount(),
    thirdNight: guestCount(),
    fourthNight: guestCount(),
    fifthNightOrLater: guestCount(),
    keptDetails: guestCount(),
  }),
  prices: z.strictObject({
    price: z.enum(PRICE_GROUPS),
    code: z.string().nullable(),
    bookings: guestCount(),
    revenueCents: cents(),
    discountCents: cents(),
  }),
  invitations: z.strictObject({
    announcementId: z.number().int(),
    eventName: z.string(),
    sentAt: z.string(),
    reachedSms: guestCount(),
    reachedEmail: guestCount(),
    booked: guestCount(),
    bookedWomen: guestCount(),
    bookedMen: guestCount(),
  }),
};

/** A report's 200: its rows as JSON, or the CSV attachment. */
const reportReply = <T extends z.ZodType>(row: T) => ({
  description: "The report's rows; with `format=csv`, the same rows as `text/csv` (an attachment).",
  content: {
    "application/json": { schema: z.strictObject({ rows: z.array(row) }) },
    "text/csv": { schema: z.string().openapi({ format: "binary" }) },
  },
});

const PERIOD = [
  "- **Who:** organiser session.",
  "- **Query:** `from` and `to`, months as `YYYY-MM` on the business's clock (`EVENT_TIME_ZONE`), both",
  "  included, at most 120 months; `format=csv` for the spreadsheet. 400 `invalid_request` otherwise.",
];

/** What every report's route declares beside its method and path: its query, summary, rows and refusals. */
const reportParts = <N extends keyof typeof ROWS>(name: N, summary: string, lines: string[]) => ({
  summary,
  description: [...PERIOD, ...lines].join("\n"),
  request: { query },
  responses: { 200: reportReply(ROWS[name]), ...errors("get", [...ADMIN_ERRORS, "invalid_request"]) },
});

const moneyRoute = createRoute({
  method: "get",
  path: "/reports/money",
  ...reportParts("money", "Money by month: ticket sales, refunds, net and GST", [
    "- **200:** one row a month: what was paid for tickets in it (paid or later refunded bookings with a",
    "  payment), the refunds made in it, the difference, and the GST of the receipts and tax invoices",
    "  issued in it less their adjustment notes' (0 when not registered). CSV: `month,bookings,gross,refunds,net,gst`.",
  ]),
});
const gstRoute = createRoute({
  method: "get",
  path: "/reports/gst",
  ...reportParts("gst", "The GST summary for the BAS, per quarter", [
    "- **200:** one row per quarter of the financial year the period touches (whole quarters: `2026-07`",
    "  is `July–September 2026`): G1 total sales including GST and 1A the GST on them, each refund taken off in",
    "  the quarter it was made. A summary for the accountant, not lodged anywhere.",
    "  CSV: `quarter,sales,refunds,G1,gst_on_sales,gst_on_refunds,1A`.",
  ]),
});
const seatsRoute = createRoute({
  method: "get",
  path: "/reports/seats",
  ...reportParts("seats", "Seats sold of those offered, per night, and how fast they went", [
    "- **200:** one row per night starting in the period: seats sold (paid, as the Overview counts them) of",
    "  those offered, by side at balanced nights, the share sold, days from going on sale to the last",
    "  seat (null when it did not sell out) and which side filled last.",
  ]),
});
const nightsRoute = createRoute({
  method: "get",
  path: "/reports/nights",
  ...reportParts("nights", "Each night that ended: who paid, who came, no-shows, early leavers, dates", [
    "- **200:** one row per night that ended, starting in the period: paid and came (as its Overview",
    "  counts them), no-shows and guests who left early (1 or 2 as `fewer than 3`), the share who came,",
    "  and the dates a guest who came had on average (null at a night run without the rounds).",
  ]),
});
const matchesRoute = createRoute({
  method: "get",
  path: "/reports/matches",
  ...reportParts("matches", "Mutual and friend matches per guest who came, by format", [
    "- **200:** one row per format over the nights that ended in the period: guests who came, mutual and",
    "  friend matches (pairs), matches per guest who came and the share with at least one.",
  ]),
});
const returningRoute = createRoute({
  method: "get",
  path: "/reports/returning",
  ...reportParts("returning", "Guests who come back: each month's bookings by numbers that booked before", [
    "- **200:** one row a month: bookings paid, those by a number that paid for a night before (and the",
    "  share), those that were a guest's 2nd, 3rd, 4th and 5th or later night, and guests who kept their",
    "  details that month. Counts of 1 or 2 guests as `fewer than 3`.",
  ]),
});
const pricesRoute = createRoute({
  method: "get",
  path: "/reports/prices",
  ...reportParts("prices", "Bookings and revenue by price: early-bird, each side's price, each promo code", [
    "- **200:** for the bookings paid in the period: `Early-bird`, `Without early-bird`, `Women's price`,",
    "  `Men's price` (nights with a price per side) and one `Promo code` row per code, each with its",
    "  bookings (`fewer than 3` for 1 or 2), what they were charged and the discount off the list price.",
  ]),
});
const invitationsRoute = createRoute({
  method: "get",
  path: "/reports/invitations",
  ...reportParts("invitations", "Each invitation: whom it reached and who booked through it", [
    "- **200:** one row per announcement made in the period: texts and emails sent, and paid bookings made",
    "  through its link, by side (each count of 1 or 2 as `fewer than 3`).",
  ]),
});

const count = (n: number | typeof FEWER_THAN_3) => n;
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
const SEATS_COLUMNS: Column<SeatsRow>[] = [
  { header: "event", cell: (r) => r.eventName },
  { header: "starts_at", cell: (r) => r.startsAt },
  { header: "format", cell: (r) => r.format },
  { header: "status", cell: (r) => r.status },
  { header: "seats_offered", cell: (r) => r.seatsOffered },
  { header: "seats_sold", cell: (r) => r.seatsSold },
  { header: "women_offered", cell: (r) => r.womenOffered ?? "" },
  { header: "women_sold", cell: (r) => r.womenSold ?? "" },
  { header: "men_offered", cell: (r) => r.menOffered ?? "" },
  { header: "men_sold", cell: (r) => r.menSold ?? "" },
  { header: "sell_through_percent", cell: (r) => r.sellThroughPercent },
  { header: "days_to_sell_out", cell: (r) => r.daysToSellOut ?? "" },
  { header: "filled_last", cell: (r) => r.filledLast ?? "" },
];
const NIGHTS_COLUMNS: Column<NightsRow>[] = [
  { header: "event", cell: (r) => r.eventName },
  { header: "starts_at", cell: (r) => r.startsAt },
  { header: "format", cell: (r) => r.format },
  { header: "paid", cell: (r) => r.paid },
  { header: "came", cell: (r) => r.came },
  { header: "no_shows", cell: (r) => count(r.noShows) },
  { header: "left_early", cell: (r) => count(r.leftEarly) },
  { header: "show_up_percent", cell: (r) => r.showUpPercent },
  { header: "average_dates", cell: (r) => r.averageDates ?? "" },
];
const MATCHES_COLUMNS: Column<MatchesRow>[] = [
  { header: "format", cell: (r) => r.format },
  { header: "nights", cell: (r) => r.nights },
  { header: "guests_came", cell: (r) => r.guestsCame },
  { header: "mutual_matches", cell: (r) => r.mutualMatches },
  { header: "friend_matches", cell: (r) => r.friendMatches },
  { header: "mutual_per_guest", cell: (r) => r.mutualPerGuest },
  { header: "friend_per_guest", cell: (r) => r.friendPerGuest },
  { header: "with_mutual_percent", cell: (r) => r.withMutualPercent },
  { header: "with_friend_percent", cell: (r) => r.withFriendPercent },
];
const RETURNING_COLUMNS: Column<ReturningRow>[] = [
  { header: "month", cell: (r) => r.month },
  { header: "bookings", cell: (r) => r.bookings },
  { header: "by_returning_guests", cell: (r) => count(r.byReturningGuests) },
  { header: "returning_percent", cell: (r) => r.returningPercent },
  { header: "second_night", cell: (r) => count(r.secondNight) },
  { header: "third_night", cell: (r) => count(r.thirdNight) },
  { header: "fourth_night", cell: (r) => count(r.fourthNight) },
  { header: "fifth_night_or_later", cell: (r) => count(r.fifthNightOrLater) },
  { header: "kept_details", cell: (r) => count(r.keptDetails) },
];
const PRICES_COLUMNS: Column<PricesRow>[] = [
  { header: "price", cell: (r) => r.price },
  { header: "code", cell: (r) => r.code ?? "" },
  { header: "bookings", cell: (r) => count(r.bookings) },
  { header: "revenue", cell: (r) => dollars(r.revenueCents) },
  { header: "discount", cell: (r) => dollars(r.discountCents) },
];
const INVITATIONS_COLUMNS: Column<InvitationsRow>[] = [
  { header: "event", cell: (r) => r.eventName },
  { header: "sent_at", cell: (r) => r.sentAt },
  { header: "reached_sms", cell: (r) => count(r.reachedSms) },
  { header: "reached_email", cell: (r) => count(r.reachedEmail) },
  { header: "booked", cell: (r) => count(r.booked) },
  { header: "booked_women", cell: (r) => count(r.bookedWomen) },
  { header: "booked_men", cell: (r) => count(r.bookedMen) },
];

/** The period of a valid query, or a 400 saying what is wrong with it. */
function periodFrom(deps: AppDeps, q: { from: string; to: string }): Period {
  const problem = periodProblem(q.from, q.to);
  if (problem) throw BadRequest(problem);
  return periodOf(q.from, q.to, deps.env.EVENT_TIME_ZONE);
}

/** One report's handler: its rows as JSON, or as the CSV attachment `{name}-{from}-to-{to}.csv`. */
const answer =
  <R>(deps: AppDeps, name: string, rowsOf: (period: Period) => R[], columns: Column<R>[]) =>
  (q: { from: string; to: string; format?: "json" | "csv" | undefined }) => {
    const rows = rowsOf(periodFrom(deps, q));
    if (q.format !== "csv") return { kind: "json", json: { rows } } as const;
    return {
      kind: "csv",
      csv: reportCsv(columns, rows),
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${name}-${q.from}-to-${q.to}.csv"`,
        "cache-control": "no-store",
      },
    } as const;
  };

const NO_STORE = { "cache-control": "no-store" };

export const reportsRoutes = (deps: AppDeps) => {
  const money = answer(deps, "money", (p) => moneyReport(deps.db, p), MONEY_COLUMNS);
  const gst = answer(deps, "gst", (p) => gstReport(deps.db, p), GST_COLUMNS);
  const seats = answer(deps, "seats", (p) => seatsReport(deps.db, p), SEATS_COLUMNS);
  const nights = answer(deps, "nights", (p) => nightsReport(deps.db, p), NIGHTS_COLUMNS);
  const matches = answer(deps, "matches", (p) => matchesReport(deps.db, p), MATCHES_COLUMNS);
  const returning = answer(deps, "returning", (p) => returningReport(deps.db, p), RETURNING_COLUMNS);
  const prices = answer(deps, "prices", (p) => pricesReport(deps.db, p), PRICES_COLUMNS);
  const invitations = answer(deps, "invitations", (p) => invitationsReport(deps.db, p), INVITATIONS_COLUMNS);
  return apiRouter()
    .openapi(adminRoute(deps, moneyRoute, "money"), (c) => {
      const a = money(c.req.valid("query"));
      return a.kind === "csv" ? c.body(a.csv, 200, a.headers) : c.json(a.json, 200, NO_STORE);
    })
    .openapi(adminRoute(deps, gstRoute, "money"), (c) => {
      const a = gst(c.req.valid("query"));
      return a.kind === "csv" ? c.body(a.csv, 200, a.headers) : c.json(a.json, 200, NO_STORE);
    })
    .openapi(adminRoute(deps, seatsRoute, "money"), (c) => {
      const a = seats(c.req.valid("query"));
      return a.kind === "csv" ? c.body(a.csv, 200, a.headers) : c.json(a.json, 200, NO_STORE);
    })
    .openapi(adminRoute(deps, nightsRoute, "money"), (c) => {
      const a = nights(c.req.valid("query"));
      return a.kind === "csv" ? c.body(a.csv, 200, a.headers) : c.json(a.json, 200, NO_STORE);
    })
    .openapi(adminRoute(deps, matchesRoute, "money"), (c) => {
      const a = matches(c.req.valid("query"));
      return a.kind === "csv" ? c.body(a.csv, 200, a.headers) : c.json(a.json, 200, NO_STORE);
    })
    .openapi(adminRoute(deps, returningRoute, "money"), (c) => {
      const a = returning(c.req.valid("query"));
      return a.kind === "csv" ? c.body(a.csv, 200, a.headers) : c.json(a.json, 200, NO_STORE);
    })
    .openapi(adminRoute(deps, pricesRoute, "money"), (c) => {
      const a = prices(c.req.valid("query"));
      return a.kind === "csv" ? c.body(a.csv, 200, a.headers) : c.json(a.json, 200, NO_STORE);
    })
    .openapi(adminRoute(deps, invitationsRoute, "money"), (c) => {
      const a = invitations(c.req.valid("query"));
      return a.kind === "csv" ? c.body(a.csv, 200, a.headers) : c.json(a.json, 200, NO_STORE);
    });
};
