import type { GstRow } from "../../../api/organiser/reports/gst.ts";
import type { InvitationsRow } from "../../../api/organiser/reports/invitations.ts";
import type { MatchesRow } from "../../../api/organiser/reports/matches.ts";
import type { MoneyRow } from "../../../api/organiser/reports/money.ts";
import type { NightsRow } from "../../../api/organiser/reports/nights.ts";
import type { PricesRow } from "../../../api/organiser/reports/prices.ts";
import type { ReturningRow } from "../../../api/organiser/reports/returning.ts";
import type { SeatsRow } from "../../../api/organiser/reports/seats.ts";
import { useAdminStore } from "../../lib/admin-store.ts";
import { type ApiReply, api, CallFailed, send } from "../../lib/api.ts";
import type { Months } from "./period.ts";

// The organiser's reports (issue 51): `GET /api/reports/{name}?from&to`, each answering `{rows}`, and
// `&format=csv` for the same rows as a spreadsheet (api/organiser/reports-routes.ts).

const calls = {
  money: api.reports.money,
  gst: api.reports.gst,
  seats: api.reports.seats,
  nights: api.reports.nights,
  matches: api.reports.matches,
  returning: api.reports.returning,
  prices: api.reports.prices,
  invitations: api.reports.invitations,
};

export type ReportName = keyof typeof calls;

/**
 * Each report's row: the server's own row type (the type its report function returns and its route's
 * schema checks outside production). Taken from there rather than from the typed client because the
 * client sees the rows as bare JSON today: reports-routes.ts's `reportParts` passes `ROWS[name]`
 * through a generic, which TypeScript widens to `ZodType`, so hc infers `rows: unknown[]`. Once
 * `reportParts` takes the row schema itself, `rowsOf` below needs no assertion.
 */
export type Rows = {
  money: MoneyRow;
  gst: GstRow;
  seats: SeatsRow;
  nights: NightsRow;
  matches: MatchesRow;
  returning: ReturningRow;
  prices: PricesRow;
  invitations: InvitationsRow;
};
export type RowOf<N extends ReportName> = Rows[N];

/**
 * A report's reply as its rows. The route declares its CSV for the same status, so the client's
 * success type is a union with the CSV's (a string or a bare Response), and its error type holds a
 * bare Response too: `guarded` (lib/admin-session.ts), which takes the declared error replies, cannot
 * take it, so a 401 locks the panel here as guarded does. JSON without rows is not the API's answer.
 */
async function rowsOf<N extends ReportName>(
  call: Promise<ApiReply<string | Response | { rows: unknown[] }, unknown>>,
): Promise<ApiReply<{ rows: RowOf<N>[] }, unknown>> {
  const reply = await call;
  if (reply.status === 401) useAdminStore.getState().lock();
  if (!reply.ok) return reply;
  const { data } = reply;
  if (typeof data !== "object" || !("rows" in data)) throw new CallFailed(new Error("a report without rows"));
  // The server's row type (see Rows above): its reply is checked against the row's schema outside production.
  return { ...reply, data: { rows: data.rows as RowOf<N>[] } };
}

/** Each report's rows over the months (the admin session goes with it). */
export const readReport = {
  money: (query: Months) => rowsOf<"money">(send(calls.money.$get({ query }))),
  gst: (query: Months) => rowsOf<"gst">(send(calls.gst.$get({ query }))),
  seats: (query: Months) => rowsOf<"seats">(send(calls.seats.$get({ query }))),
  nights: (query: Months) => rowsOf<"nights">(send(calls.nights.$get({ query }))),
  matches: (query: Months) => rowsOf<"matches">(send(calls.matches.$get({ query }))),
  returning: (query: Months) => rowsOf<"returning">(send(calls.returning.$get({ query }))),
  prices: (query: Months) => rowsOf<"prices">(send(calls.prices.$get({ query }))),
  invitations: (query: Months) => rowsOf<"invitations">(send(calls.invitations.$get({ query }))),
};

/** Where a report's CSV is served (an `<a download>`: the admin session cookie goes with it). */
export const reportCsvUrl = (name: ReportName, months: Months) =>
  calls[name].$path({ query: { ...months, format: "csv" } });

/** The public settings, for the business's time zone (EVENT_TIME_ZONE) on whose clock months are counted. */
export const businessSettings = () => send(api["public-config"].$get());
