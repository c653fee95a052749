import { FORMAT_LABELS } from "../../../common/formats.ts";
import { GST_SUMMARY_NOTE } from "../../../common/gst-summary.ts";
import { venueDayMonth } from "../../../common/time-zone.ts";
import { formatAtVenue, statusLabel } from "../../lib/event-labels.ts";
import { formatPrice } from "../events/index.ts";
import type { ReportSpec } from "./components/report-section.tsx";
import { monthLabel, shortMonthLabel } from "./period.ts";
import { type ReportName, type RowOf, readReport } from "./reports-api.ts";

// What each of the eight reports shows (issue 51): its columns, in the server's numbers, and the chart
// drawn from the same rows. Money is integer cents from the server, shown as dollars here only.

type Spec<N extends ReportName> = ReportSpec<RowOf<N>>;

/** `$1,234.50` from integer cents. */
const dollars = (cents: number) => formatPrice(cents / 100);
const percent = (n: number) => `${n}%`;
/** A count of guests as the server gives it: a number, or `fewer than 3`. */
const count = (n: number | string) => String(n);
/** A count on a chart: `fewer than 3` is not drawn (the table says it). */
const plotted = (n: number | string) => (typeof n === "number" ? n : null);
const outOf = (sold: number | null, offered: number | null) =>
  sold === null || offered === null ? "—" : `${sold} of ${offered}`;
const dayOf = (iso: string, zone: string) => venueDayMonth(Date.parse(iso), zone, "short");

export const MONEY: Spec<"money"> = {
  name: "money",
  title: "Money",
  empty: "No sales or refunds in this period.",
  load: readReport.money,
  columns: [
    { header: "Month", cell: (r) => monthLabel(r.month) },
    { header: "Bookings", cell: (r) => r.bookings },
    { header: "Gross", cell: (r) => dollars(r.grossCents) },
    { header: "Refunds", cell: (r) => dollars(r.refundsCents) },
    { header: "Net", cell: (r) => dollars(r.netCents) },
    { header: "GST", cell: (r) => dollars(r.gstCents) },
  ],
  rowKey: (r) => r.month,
  isEmpty: (rows) => rows.every((r) => r.bookings === 0 && r.grossCents === 0 && r.refundsCents === 0),
  chart: (rows) => ({
    kind: "lines",
    unit: "dollars",
    labels: rows.map((r) => shortMonthLabel(r.month)),
    series: [
      { label: "Gross", values: rows.map((r) => r.grossCents / 100) },
      { label: "Refunds", values: rows.map((r) => r.refundsCents / 100) },
      { label: "Net", values: rows.map((r) => r.netCents / 100) },
    ],
  }),
};

export const GST: Spec<"gst"> = {
  name: "gst",
  title: "GST summary for the BAS",
  empty: "No sales or refunds in this period's quarters.",
  note: GST_SUMMARY_NOTE,
  load: readReport.gst,
  columns: [
    { header: "Quarter", cell: (r) => r.label },
    { header: "Sales", cell: (r) => dollars(r.salesCents) },
    { header: "Refunds", cell: (r) => dollars(r.refundsCents) },
    { header: "G1 total sales", cell: (r) => dollars(r.g1Cents) },
    { header: "GST on sales", cell: (r) => dollars(r.gstOnSalesCents) },
    { header: "GST on refunds", cell: (r) => dollars(r.gstOnRefundsCents) },
    { header: "1A GST on sales", cell: (r) => dollars(r.a1Cents) },
  ],
  rowKey: (r) => r.quarter,
  isEmpty: (rows) => rows.every((r) => r.salesCents === 0 && r.refundsCents === 0),
};

export const SEATS: Spec<"seats"> = {
  name: "seats",
  title: "Seats",
  empty: "No nights in this period.",
  load: readReport.seats,
  columns: [
    { header: "Night", cell: (r) => r.eventName },
    { header: "Starts", cell: (r) => formatAtVenue(r.startsAt, r.timeZone) },
    { header: "Format", cell: (r) => FORMAT_LABELS[r.format] },
    { header: "Status", cell: (r) => statusLabel(r.status) },
    { header: "Seats sold", cell: (r) => outOf(r.seatsSold, r.seatsOffered) },
    { header: "Women", cell: (r) => outOf(r.womenSold, r.womenOffered) },
    { header: "Men", cell: (r) => outOf(r.menSold, r.menOffered) },
    { header: "Sell-through", cell: (r) => percent(r.sellThroughPercent) },
    { header: "Days to sell out", cell: (r) => r.daysToSellOut ?? "Not sold out" },
    { header: "Filled last", cell: (r) => (r.filledLast === "women" ? "Women" : r.filledLast === "men" ? "Men" : "—") },
  ],
  rowKey: (r) => String(r.eventId),
  chart: (rows) => ({
    kind: "bars",
    unit: "percent",
    labels: rows.map((r) => dayOf(r.startsAt, r.timeZone)),
    series: [{ label: "Sell-through", values: rows.map((r) => r.sellThroughPercent) }],
  }),
};

export const NIGHTS: Spec<"nights"> = {
  name: "nights",
  title: "Nights",
  empty: "No nights ended in this period.",
  load: readReport.nights,
  columns: [
    { header: "Night", cell: (r) => r.eventName },
    { header: "Started", cell: (r, zone) => formatAtVenue(r.startsAt, zone) },
    { header: "Format", cell: (r) => FORMAT_LABELS[r.format] },
    { header: "Paid", cell: (r) => r.paid },
    { header: "Came", cell: (r) => r.came },
    { header: "No-shows", cell: (r) => count(r.noShows) },
    { header: "Left early", cell: (r) => count(r.leftEarly) },
    { header: "Show-up rate", cell: (r) => percent(r.showUpPercent) },
    { header: "Average dates", cell: (r) => r.averageDates ?? "—" },
  ],
  rowKey: (r) => String(r.eventId),
  chart: (rows, zone) => ({
    kind: "bars",
    unit: "percent",
    labels: rows.map((r) => dayOf(r.startsAt, zone)),
    series: [{ label: "Show-up rate", values: rows.map((r) => r.showUpPercent) }],
  }),
};

export const MATCHES: Spec<"matches"> = {
  name: "matches",
  title: "Matches",
  empty: "No nights ended in this period.",
  load: readReport.matches,
  columns: [
    { header: "Format", cell: (r) => FORMAT_LABELS[r.format] },
    { header: "Nights", cell: (r) => r.nights },
    { header: "Guests who came", cell: (r) => r.guestsCame },
    { header: "Mutual matches", cell: (r) => r.mutualMatches },
    { header: "Friend matches", cell: (r) => r.friendMatches },
    { header: "Mutual per guest", cell: (r) => r.mutualPerGuest },
    { header: "Friend per guest", cell: (r) => r.friendPerGuest },
    { header: "With a mutual match", cell: (r) => percent(r.withMutualPercent) },
    { header: "With a friend match", cell: (r) => percent(r.withFriendPercent) },
  ],
  rowKey: (r) => r.format,
  chart: (rows) => ({
    kind: "bars",
    unit: "percent",
    labels: rows.map((r) => FORMAT_LABELS[r.format]),
    series: [
      { label: "With a mutual match", values: rows.map((r) => r.withMutualPercent) },
      { label: "With a friend match", values: rows.map((r) => r.withFriendPercent) },
    ],
  }),
};

export const RETURNING: Spec<"returning"> = {
  name: "returning",
  title: "Guests who come back",
  empty: "No bookings in this period.",
  load: readReport.returning,
  columns: [
    { header: "Month", cell: (r) => monthLabel(r.month) },
    { header: "Bookings", cell: (r) => r.bookings },
    { header: "By returning guests", cell: (r) => count(r.byReturningGuests) },
    { header: "Returning", cell: (r) => percent(r.returningPercent) },
    { header: "2nd night", cell: (r) => count(r.secondNight) },
    { header: "3rd night", cell: (r) => count(r.thirdNight) },
    { header: "4th night", cell: (r) => count(r.fourthNight) },
    { header: "5th night or later", cell: (r) => count(r.fifthNightOrLater) },
    { header: "Kept their details", cell: (r) => count(r.keptDetails) },
  ],
  rowKey: (r) => r.month,
  isEmpty: (rows) => rows.every((r) => r.bookings === 0),
  chart: (rows) => ({
    kind: "lines",
    unit: "percent",
    labels: rows.map((r) => shortMonthLabel(r.month)),
    series: [{ label: "Bookings by returning guests", values: rows.map((r) => r.returningPercent) }],
  }),
};

export const PRICES: Spec<"prices"> = {
  name: "prices",
  title: "Prices and codes",
  empty: "No paid bookings in this period.",
  load: readReport.prices,
  columns: [
    { header: "Price", cell: (r) => r.price },
    { header: "Code", cell: (r) => r.code ?? "—" },
    { header: "Bookings", cell: (r) => count(r.bookings) },
    { header: "Revenue", cell: (r) => dollars(r.revenueCents) },
    { header: "Discount", cell: (r) => dollars(r.discountCents) },
  ],
  rowKey: (r) => `${r.price}|${r.code ?? ""}`,
  chart: (rows) => ({
    kind: "bars",
    unit: "dollars",
    labels: rows.map((r) => r.code ?? r.price),
    series: [{ label: "Revenue", values: rows.map((r) => r.revenueCents / 100) }],
  }),
};

export const INVITATIONS: Spec<"invitations"> = {
  name: "invitations",
  title: "Invitations",
  empty: "No announcements in this period.",
  load: readReport.invitations,
  columns: [
    { header: "Night", cell: (r) => r.eventName },
    { header: "Sent", cell: (r, zone) => formatAtVenue(r.sentAt, zone) },
    { header: "Texts", cell: (r) => count(r.reachedSms) },
    { header: "Emails", cell: (r) => count(r.reachedEmail) },
    { header: "Booked", cell: (r) => count(r.booked) },
    { header: "Women booked", cell: (r) => count(r.bookedWomen) },
    { header: "Men booked", cell: (r) => count(r.bookedMen) },
  ],
  rowKey: (r) => String(r.announcementId),
  chart: (rows, zone) => ({
    kind: "bars",
    unit: "count",
    labels: rows.map((r) => dayOf(r.sentAt, zone)),
    series: [{ label: "Booked through the link", values: rows.map((r) => plotted(r.booked)) }],
  }),
};
