import { type ReactNode, useId, useMemo } from "react";
import { ReplyView } from "../../../components/ui/reply-view.tsx";
import type { ApiReply } from "../../../lib/api.ts";
import { useReply } from "../../../lib/use-reply.ts";
import { type Months, periodLabel } from "../period.ts";
import { type ReportName, reportCsvUrl } from "../reports-api.ts";
import { type ChartSpec, ReportChart } from "./report-chart.tsx";

// One report on the Reports tab: its heading, its chart, the same numbers in a table under it (the
// chart's text alternative) and **Download CSV** for the same rows as a spreadsheet.

/** A column: its header and a row's cell (times on `zone`, the business's clock, where the row has none). */
export type Column<R> = { header: string; cell: (row: R, zone: string) => ReactNode };

export type ReportSpec<R> = {
  name: ReportName;
  title: string;
  /** The line shown when the period holds nothing to report: `No sales or refunds in this period.` */
  empty: string;
  load(months: Months): Promise<ApiReply<{ rows: R[] }, unknown>>;
  columns: Column<R>[];
  rowKey(row: R): string;
  /** The chart of the rows, where one says more than the table alone; none for the GST summary. */
  chart?(rows: R[], zone: string): ChartSpec;
  /** Rows that are there but say nothing (a month of zeros) count as empty. */
  isEmpty?(rows: R[]): boolean;
  /** A line under the heading (the GST summary's). */
  note?: string;
};

type Loaded<R> = { status: "ready"; rows: R[] } | { status: "error" };

export function ReportSection<R>({ spec, months, zone }: { spec: ReportSpec<R>; months: Months; zone: string }) {
  const id = useId();
  const report = useReply(`${spec.name}|${months.from}|${months.to}`, {
    async load(): Promise<Loaded<R>> {
      const reply = await spec.load(months);
      return reply.ok ? { status: "ready", rows: reply.data.rows } : { status: "error" };
    },
    failed(error): Loaded<R> {
      console.warn(error);
      return { status: "error" };
    },
  });
  const caption = `${spec.title}, ${periodLabel(months)}`;
  const rows = report.state.status === "ready" ? report.state.rows : null;
  // Drawn again only when the numbers change, not on every render of the tab.
  const chart = useMemo(() => (rows && spec.chart ? spec.chart(rows, zone) : null), [rows, spec, zone]);
  const lower = spec.title.charAt(0).toLowerCase() + spec.title.slice(1);

  return (
    <section className="report" aria-labelledby={`${id}-title`}>
      <div className="report-head">
        <h2 id={`${id}-title`}>{spec.title}</h2>
        <a className="button" href={reportCsvUrl(spec.name, months)} download>
          Download CSV<span className="sr-only"> of {lower}</span>
        </a>
      </div>
      {spec.note ? <p className="report-note">{spec.note}</p> : null}
      <ReplyView
        state={report.state}
        loading={
          <p role="status" className="admin-loading">
            Loading {lower}...
          </p>
        }
        error={`Couldn't load ${lower}.`}
        onRetry={report.reload}
        isEmpty={(ready) => ready.rows.length === 0 || (spec.isEmpty?.(ready.rows) ?? false)}
        empty={<p className="empty">{spec.empty}</p>}
      >
        {(ready) => (
          <>
            {chart ? <ReportChart spec={chart} title={spec.title} tableName={caption} /> : null}
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable (WCAG 2.1.1) */}
            <section className="admin-table-wrap" tabIndex={0} aria-label={caption}>
              <table className="admin-table report-table">
                <caption>{caption}</caption>
                <thead>
                  <tr>
                    {spec.columns.map((c) => (
                      <th key={c.header} scope="col">
                        {c.header}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {ready.rows.map((row) => (
                    <tr key={spec.rowKey(row)}>
                      {spec.columns.map((c, i) =>
                        i === 0 ? (
                          <th key={c.header} scope="row">
                            {c.cell(row, zone)}
                          </th>
                        ) : (
                          <td key={c.header}>{c.cell(row, zone)}</td>
                        ),
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </>
        )}
      </ReplyView>
    </section>
  );
}
