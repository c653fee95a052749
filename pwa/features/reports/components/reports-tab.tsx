import { useState } from "react";
import { ReplyView } from "../../../components/ui/reply-view.tsx";
import { useReply } from "../../../lib/use-reply.ts";
import { type Months, monthsFor, monthsProblem, type PeriodKind, periodLabel } from "../period.ts";
import { GST, INVITATIONS, MATCHES, MONEY, NIGHTS, PRICES, RETURNING, SEATS } from "../report-specs.ts";
import { businessSettings } from "../reports-api.ts";
import { PeriodPicker } from "./period-picker.tsx";
import { ReportSection } from "./report-section.tsx";
import "../reports.css";

type Settings = { status: "ready"; zone: string } | { status: "error" };

/**
 * The organiser's **Reports** tab (issue 51): a period, then the eight reports over it, each a chart
 * and the same numbers in a table, with **Download CSV**. Months are the business's
 * (EVENT_TIME_ZONE, from the public settings), as the server counts them.
 */
export function ReportsTab() {
  const settings = useReply("public-config", {
    async load(): Promise<Settings> {
      const reply = await businessSettings();
      return reply.ok ? { status: "ready", zone: reply.data.eventTimeZone } : { status: "error" };
    },
    failed(error): Settings {
      console.warn(error);
      return { status: "error" };
    },
  });
  return (
    <ReplyView
      state={settings.state}
      loading={
        <p role="status" className="admin-loading">
          Loading the reports...
        </p>
      }
      error="Couldn't load the business's settings."
      onRetry={settings.reload}
    >
      {({ zone }) => <Reports zone={zone} />}
    </ReplyView>
  );
}

function Reports({ zone }: { zone: string }) {
  const [kind, setKind] = useState<PeriodKind>("This month");
  const [picked, setPicked] = useState<Months>(() => monthsFor("This month", zone) ?? { from: "", to: "" });
  const months = monthsFor(kind, zone) ?? picked;
  const problem = kind === "Any two months" ? monthsProblem(picked) : null;

  return (
    <div className="reports">
      <h2 className="sr-only">Reports</h2>
      <PeriodPicker
        kind={kind}
        picked={picked}
        onKind={(next) => {
          // Any two months starts from the months shown, for the organiser to change.
          if (next === "Any two months") setPicked(months);
          setKind(next);
        }}
        onPicked={setPicked}
      />
      {problem ? (
        <p className="notice error" role="alert">
          {problem}
        </p>
      ) : (
        <>
          <p className="report-showing" aria-live="polite">
            Showing {periodLabel(months)}.
          </p>
          <ReportSection spec={MONEY} months={months} zone={zone} />
          <ReportSection spec={GST} months={months} zone={zone} />
          <ReportSection spec={SEATS} months={months} zone={zone} />
          <ReportSection spec={NIGHTS} months={months} zone={zone} />
          <ReportSection spec={MATCHES} months={months} zone={zone} />
          <ReportSection spec={RETURNING} months={months} zone={zone} />
          <ReportSection spec={PRICES} months={months} zone={zone} />
          <ReportSection spec={INVITATIONS} months={months} zone={zone} />
        </>
      )}
    </div>
  );
}
