import { useState } from "react";
import { DEFAULT_TIME_ZONE } from "../../../../common/time-zone.ts";
import { ErrorNotice } from "../../../lib/error-notice.tsx";
import { useOnline } from "../../../lib/use-online.ts";
import { useConfirm } from "../../admin/components/confirm-dialog.tsx";
import { EventPicker } from "../../admin/components/event-picker.tsx";
import type { useAdminEvents } from "../../admin/use-admin-events.ts";
import { ResultsPanel } from "../../results/components/results-panel.tsx";
import type { RunAction, ShownClock } from "../rounds-api.ts";
import { useRounds } from "../use-rounds.ts";
import { PlanTable } from "./plan-table.tsx";
import { PresentList } from "./present-list.tsx";
import { RoundControls } from "./round-controls.tsx";
import { SettingsForm } from "./settings-form.tsx";
import "../rounds.css";

/**
 * The host's **Rounds** tab, built for a phone at 390 px: who is here, the settings and the plan,
 * then the night's clock and its buttons (docs/decisions/020-rounds-on-the-phones.md).
 */
export function RoundsConsole({
  events,
  fixedEvent,
}: {
  /** The organiser's picker; a host's phone has none and passes its one event as `fixedEvent`. */
  events?: ReturnType<typeof useAdminEvents>;
  fixedEvent?: { id: number; timeZone: string };
}) {
  const [chosenID, setEventID] = useState<number | null>(null);
  const eventID = fixedEvent?.id ?? chosenID;
  const { state, busy, problem, unreachable, reload, run, plan, setLeft, dismissProblem } = useRounds(eventID);
  const online = useOnline();
  const { confirm, dialog } = useConfirm();
  const picked = events?.state.status === "ready" ? events.state.events.find((e) => e.id === eventID) : undefined;
  const timeZone = fixedEvent?.timeZone ?? picked?.time_zone ?? DEFAULT_TIME_ZONE;

  const onRun = async (action: RunAction, shown: ShownClock) => {
    if (action === "finish") {
      const go = await confirm({
        title: "Finish the rounds?",
        lines: [
          "The clock stops and the guests' phones say the rounds are over.",
          "Until the event ends, Resume brings the last round back.",
        ],
        confirmLabel: "Finish rounds",
      });
      if (!go) return;
    }
    await run(action, shown);
  };

  return (
    <div className="rounds">
      {events ? <EventPicker id="rounds-event" events={events} value={eventID} onChange={setEventID} /> : null}
      {!online || unreachable ? (
        <p className="notice rounds-offline" role="status">
          {online
            ? "Can't reach the server: the controls need the network. The timer keeps running."
            : "You're offline: the controls need the network. The timer keeps running."}
        </p>
      ) : null}
      {problem ? (
        <div className="notice error rounds-problem" role="alert">
          <p>{problem}</p>
          <button type="button" className="button" onClick={dismissProblem}>
            Dismiss
          </button>
        </div>
      ) : null}
      {state.status === "idle" && events?.state.status === "ready" ? (
        <p className="empty">Choose tonight's event to plan and run its rounds.</p>
      ) : null}
      {state.status === "loading" ? (
        <p role="status" className="admin-loading">
          Loading the rounds...
        </p>
      ) : null}
      {state.status === "error" ? <ErrorNotice message={state.message} onRetry={reload} /> : null}
      {state.status === "ready" ? (
        <div className="rounds-layout">
          <div className="rounds-side">
            {state.rounds.status === "none" ? null : (
              <RoundControls
                rounds={state.rounds}
                receivedAt={state.receivedAt}
                canControl={online}
                busy={busy}
                onRun={(action, shown) => void onRun(action, shown)}
              />
            )}
            <PresentList
              rounds={state.rounds}
              canChange={(userID) => online && busy !== `left:${userID}` && state.rounds.status !== "finished"}
              onLeft={(userID, left) => void setLeft(userID, left)}
            />
            {state.rounds.status === "finished" ? null : (
              <SettingsForm
                key={eventID}
                status={state.rounds.status}
                settings={state.rounds.settings}
                disabled={!online}
                busy={busy === "plan"}
                onPlan={(settings) => void plan(settings)}
              />
            )}
          </div>
          {state.rounds.status === "none" ? null : (
            <div className="rounds-card rounds-main">
              <PlanTable rounds={state.rounds} />
            </div>
          )}
        </div>
      ) : null}
      {/* The results follow the rounds, and stay here after the night for paper cards and the release. */}
      <ResultsPanel
        key={eventID ?? 0}
        eventID={eventID}
        timeZone={timeZone}
        canChange={online}
        canRelease={events !== undefined}
      />
      {dialog}
    </div>
  );
}
