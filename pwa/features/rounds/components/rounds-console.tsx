import { useCallback, useEffect, useState } from "react";
import { DEFAULT_TIME_ZONE } from "../../../../common/time-zone.ts";
import { type ConfirmRequest, useConfirm } from "../../../components/ui/confirm-dialog.tsx";
import { type EventList, EventPicker } from "../../../components/ui/event-picker.tsx";
import { FormMessage, type Message } from "../../../components/ui/form-message.tsx";
import { ReplyView } from "../../../components/ui/reply-view.tsx";
import { useOnline } from "../../../lib/use-online.ts";
import { type AdminEventDetail, EventLifecycleActions, getEventDetail } from "../../admin/index.ts";
import { MessageGuests } from "../../guest-messages/index.ts";
import { ResultsPanel } from "../../results/index.ts";
import { sparseAddedRounds } from "../console-view.ts";
import type { RoundsSettings, RunAction, ShownClock } from "../rounds-api.ts";
import { type Busy, type ConsoleState, useRounds } from "../use-rounds.ts";
import { KeepApart } from "./keep-apart.tsx";
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
  eventId = null,
  onPick,
}: {
  /** The organiser's picker; a host's phone has none and passes its one event as `fixedEvent`. */
  events?: EventList;
  fixedEvent?: { id: number; timeZone: string };
  /** The organiser's event, kept in the address (`/admin?tab=rounds&event=6`) as the other tabs do. */
  eventId?: number | null;
  onPick?(id: number | null): void;
}) {
  const eventID = fixedEvent?.id ?? eventId;
  const {
    state,
    busy,
    problem,
    unreachable,
    reload,
    refresh,
    run,
    plan,
    previewPlan,
    setLeft,
    announce,
    dismissProblem,
    ratingsSeen,
  } = useRounds(eventID, undefined, events !== undefined); // a host's tab has no Start Event
  const online = useOnline();
  const { confirm, dialog } = useConfirm();
  const picked = events?.state.status === "ready" ? events.state.events.find((e) => e.id === eventID) : undefined;
  const timeZone = fixedEvent?.timeZone ?? picked?.timeZone ?? DEFAULT_TIME_ZONE;

  const onRun = async (action: RunAction, shown: ShownClock) => {
    if (action === "finish") {
      if (!(await confirm(FINISH_REQUEST))) return;
    }
    await run(action, shown);
  };

  // Re-plan rounds: warn first when it would add rounds where fewer than half of those present meet.
  const onPlan = async (settings: RoundsSettings, suggestMax: (maxRounds: number) => void) => {
    if (state.status === "ready" && state.rounds.status !== "none") {
      const next = await previewPlan(settings);
      const sparse = next ? sparseAddedRounds(state.rounds, next) : null;
      if (sparse) {
        const go = await confirm(sparseRequest(sparse));
        if (!go) {
          suggestMax(sparse.suggestMax);
          return;
        }
      }
    }
    await plan(settings);
  };
  return (
    <div className="rounds">
      {events ? (
        <EventPicker id="rounds-event" events={events} value={eventID} onChange={(id) => onPick?.(id)} />
      ) : null}
      <ConsoleNotices online={online} unreachable={unreachable} problem={problem} onDismiss={dismissProblem} />
      <ReplyView
        state={state}
        idle={events?.state.status === "ready" ? CHOOSE : null}
        loading={LOADING}
        onRetry={reload}
      >
        {(ready) => (
          <>
            {eventID !== null ? (
              <NightActions
                key={`night-${eventID}`}
                eventID={eventID}
                organiser={events !== undefined}
                eventStatus={ready.rounds.eventStatus}
                online={online}
                onChanged={async () => {
                  await refresh();
                  await events?.reload();
                }}
              />
            ) : null}
            {over(ready.rounds) ? (
              <p className="notice rounds-ended" role="status">
                This night has ended: its rounds are shown read-only.
              </p>
            ) : null}
            <RoundsLayout
              state={ready}
              eventID={eventID}
              organiser={events !== undefined}
              online={online}
              busy={busy}
              onRun={(action, shown) => void onRun(action, shown)}
              onAnnounce={announce}
              onLeft={(userID, left) => void setLeft(userID, left)}
              onPlanChanged={refresh}
              onPlan={(settings, suggestMax) => void onPlan(settings, suggestMax)}
            />
          </>
        )}
      </ReplyView>
      {/* The results follow the rounds, and stay here after the night for paper cards and the release. */}
      <ResultsPanel
        key={eventID ?? 0}
        eventID={eventID}
        timeZone={timeZone}
        canChange={online}
        canRelease={events !== undefined}
        refreshKey={ratingsSeen}
      />
      {dialog}
    </div>
  );
}

const CHOOSE = <p className="empty">Choose tonight's event to plan and run its rounds.</p>;
const LOADING = (
  <p role="status" className="admin-loading">
    Loading the rounds...
  </p>
);

const FINISH_REQUEST = {
  title: "Finish the rounds?",
  lines: [
    "The clock stops and the guests' phones say the rounds are over.",
    "Until the event ends, Resume brings the last round back.",
  ],
  confirmLabel: "Finish rounds",
};

/** What Re-plan rounds asks first when it would add rounds where fewer than half of those present meet. */
function sparseRequest(sparse: NonNullable<ReturnType<typeof sparseAddedRounds>>): ConfirmRequest {
  const rounds = sparse.from === sparse.to ? `Round ${sparse.from}` : `Rounds ${sparse.from} to ${sparse.to}`;
  return {
    title: "Re-plan with rounds where few meet?",
    warning: `${rounds} would pair fewer than half of the ${sparse.present} people present: most of the room would sit out.`,
    lines: [
      `Max rounds ${sparse.suggestMax} stops before ${sparse.from === sparse.to ? "it" : "them"}. Go back to re-plan with it (filled in for you).`,
    ],
    confirmLabel: "Re-plan anyway",
  };
}

/** Why the controls wait (offline, or the server out of reach), and the last refusal until dismissed. */
function ConsoleNotices(props: { online: boolean; unreachable: boolean; problem: string | null; onDismiss(): void }) {
  const { online, problem } = props;
  return (
    <>
      {!online || props.unreachable ? (
        <p className="notice rounds-offline" role="status">
          {online
            ? "Can't reach the server: the controls need the network. The timer keeps running."
            : "You're offline: the controls need the network. The timer keeps running."}
        </p>
      ) : null}
      {problem ? (
        <div className="notice error rounds-problem" role="alert">
          <p>{problem}</p>
          <button type="button" className="button" onClick={props.onDismiss}>
            Dismiss
          </button>
        </div>
      ) : null}
    </>
  );
}

/** The console itself: the clock and its buttons, who is here, Keep apart and the settings, then the plan. */
function RoundsLayout(props: {
  state: Extract<ConsoleState, { status: "ready" }>;
  eventID: number | null;
  organiser: boolean;
  online: boolean;
  busy: Busy;
  onRun(action: RunAction, shown: ShownClock): void;
  onAnnounce(text: string): Promise<boolean>;
  onLeft(userID: number, left: boolean): void;
  onPlanChanged(): Promise<void> | void;
  onPlan(settings: RoundsSettings, suggestMax: (maxRounds: number) => void): void;
}) {
  const { state, eventID, online, busy } = props;
  return (
    <div className="rounds-layout">
      <div className="rounds-side">
        {state.rounds.status === "none" ? null : (
          <RoundControls
            rounds={state.rounds}
            receivedAt={state.receivedAt}
            canControl={online}
            busy={busy}
            onRun={props.onRun}
            onAnnounce={props.onAnnounce}
          />
        )}
        <PresentList
          rounds={state.rounds}
          canChange={(userID) =>
            online && busy !== `left:${userID}` && state.rounds.status !== "finished" && !over(state.rounds)
          }
          onLeft={props.onLeft}
        />
        {/* The organiser's alone (a host's phone has no picker): who is kept apart, and why, is private. */}
        {props.organiser && eventID !== null ? (
          <KeepApart
            key={`keep-apart-${eventID}`}
            eventID={eventID}
            disabled={!online || over(state.rounds)}
            onPlanChanged={props.onPlanChanged}
          />
        ) : null}
        {state.rounds.status === "finished" || over(state.rounds) ? null : (
          <SettingsForm
            key={eventID}
            format={state.rounds.format}
            status={state.rounds.status}
            settings={state.rounds.settings}
            disabled={!online}
            busy={busy === "plan"}
            onPlan={props.onPlan}
          />
        )}
      </div>
      {state.rounds.status === "none" ? null : (
        <div className="rounds-card rounds-main">
          <PlanTable rounds={state.rounds} />
        </div>
      )}
    </div>
  );
}

/** Ended or cancelled: the night's rounds are shown read-only. */
const over = (rounds: { eventStatus: string }) => rounds.eventStatus === "ended" || rounds.eventStatus === "cancelled";

/**
 * The night's two moments and its message, beside the rounds: **Start Event** and **End Event** (the
 * organiser's, the same confirmed actions as on the Edit tab) and **Message guests** (the organiser's
 * and a host's), while the event has not ended.
 */
function NightActions(props: {
  eventID: number;
  organiser: boolean;
  eventStatus: string;
  online: boolean;
  onChanged(): Promise<void>;
}) {
  const { eventID, organiser, eventStatus, online, onChanged } = props;
  const [detail, setDetail] = useState<AdminEventDetail | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const [acting, setActing] = useState(false);
  const load = useCallback(async () => {
    try {
      const reply = await getEventDetail(eventID);
      setDetail(reply.ok ? reply.data : null);
    } catch (error) {
      console.warn(error);
      setDetail(null);
    }
  }, [eventID]);
  // Read again when the rounds' poll sees the event start or end elsewhere (the Edit tab, say).
  useEffect(() => {
    if (organiser && eventStatus) void load();
  }, [organiser, eventStatus, load]);

  const open = eventStatus === "upcoming" || eventStatus === "started";
  if (!open && !message) return null;
  return (
    <section className="rounds-card rounds-night" aria-label="The night">
      <div className="admin-actions rounds-night-actions">
        {organiser && detail && open ? (
          <EventLifecycleActions
            event={detail}
            unrefunded={0}
            blocked={!online}
            onMessage={setMessage}
            onBusy={setActing}
            onDone={async () => {
              await load();
              await onChanged();
            }}
            withCancel={false}
          />
        ) : null}
        {open ? <MessageGuests eventID={eventID} disabled={!online || acting} /> : null}
      </div>
      <FormMessage message={message} />
    </section>
  );
}
