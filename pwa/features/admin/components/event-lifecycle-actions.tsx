import { useState } from "react";
import { type ConfirmRequest, useConfirm } from "../../../components/ui/confirm-dialog.tsx";
import type { Message } from "../../../components/ui/form-message.tsx";
import { type AdminEventDetail, cancelEvent, endEvent, openDoorsNow, startEvent } from "../admin-api.ts";
import { earlyStartWarning, formatAud, plural } from "../format.ts";
import { numbersOf } from "../use-event-editor.ts";

type Props = {
  event: AdminEventDetail;
  /** Paid bookings of a cancelled event still to refund: the cancel button then finishes them. */
  unrefunded: number;
  /** Another action (saving the fields) is running: these wait for it. */
  blocked: boolean;
  onMessage(message: Message): void;
  /** While an action runs, the form's own Update waits too. */
  onBusy(busy: boolean): void;
  /** After an action went through or failed: the event is read again. */
  onDone(): Promise<void>;
  /** False on the Rounds tab: Start and End beside the rounds controls, Cancel only on the Edit tab. */
  withCancel?: boolean;
};

/** Start Event, End Event and Cancel event (or Finish refunds), each confirmed in a dialog first. */
export function EventLifecycleActions({
  event,
  unrefunded,
  blocked,
  onMessage,
  onBusy,
  onDone,
  withCancel = true,
}: Props) {
  const [busy, setBusyHere] = useState(false);
  const setBusy = (next: boolean) => {
    setBusyHere(next);
    onBusy(next);
  };
  const { confirm, dialog } = useConfirm();
  const finishingRefunds = event.status === "cancelled" && unrefunded > 0;
  const disabled = busy || blocked;

  const run = async (failure: string, act: () => Promise<Message>) => {
    setBusy(true);
    onMessage(null);
    try {
      onMessage(await act());
      await onDone();
    } catch (error) {
      console.warn(error);
      onMessage({ kind: "error", text: failure, detail: "The server could not be reached." });
    } finally {
      setBusy(false);
    }
  };

  const lifecycle = async (step: "start" | "end") => {
    const go = await confirm(lifecycleRequest(event, step, await numbersOf(event.id)));
    if (!go) return;
    const failed = step === "start" ? "Failed to start the event." : "Failed to end the event.";
    await run(failed, async () => {
      const reply = await (step === "start" ? startEvent(event.id) : endEvent(event.id));
      if (reply.ok) {
        const text =
          step === "start"
            ? "Event has started! SMS sent to participants."
            : "Event has ended! SMS sent to participants.";
        return { kind: "ok", text, detail: smsSummary(reply.data.sent, reply.data.failed) };
      }
      return reply.status === 401 ? null : { kind: "error", text: failed, detail: reply.data.error };
    });
  };

  // Check-in opens at once; nobody is texted and sales stay open (docs/decisions/008-door.md).
  const doorsShut = Date.parse(event.doorsOpenAt) > Date.now();
  const openDoors = async () => {
    const go = await confirm(openDoorsRequest(event));
    if (!go) return;
    const failed = "Failed to open the doors.";
    await run(failed, async () => {
      const reply = await openDoorsNow(event.id);
      if (reply.ok) return { kind: "ok", text: "Doors are open.", detail: "The door can check people in now." };
      return reply.status === 401 ? null : { kind: "error", text: failed, detail: reply.data.error };
    });
  };

  const cancel = async () => {
    const go = await confirm(cancelRequest(event, await numbersOf(event.id), finishingRefunds));
    if (!go) return;
    await run("Failed to cancel the event.", async () => {
      const reply = await cancelEvent(event.id);
      if (!reply.ok) {
        return reply.status === 401
          ? null
          : { kind: "error", text: "Failed to cancel the event.", detail: reply.data.error };
      }
      return cancelledMessage(reply.data);
    });
  };

  return (
    <>
      <button
        type="button"
        className="button"
        disabled={!doorsShut || disabled || (event.status !== "upcoming" && event.status !== "started")}
        onClick={() => void openDoors()}
      >
        Open doors now
      </button>
      <button
        type="button"
        className="button admin-start"
        disabled={event.status !== "upcoming" || disabled}
        onClick={() => void lifecycle("start")}
      >
        Start Event
      </button>
      <button
        type="button"
        className="button admin-end"
        disabled={event.status !== "started" || disabled}
        onClick={() => void lifecycle("end")}
      >
        End Event
      </button>
      {withCancel ? (
        <button
          type="button"
          className="button admin-end"
          disabled={disabled || (!finishingRefunds && event.status !== "upcoming")}
          onClick={() => void cancel()}
        >
          {finishingRefunds ? "Finish refunds" : "Cancel event"}
        </button>
      ) : null}
      {dialog}
    </>
  );
}

type Numbers = Awaited<ReturnType<typeof numbersOf>>;

/** What Start Event or End Event asks before it goes, with the night's numbers when they could be read. */
function lifecycleRequest(event: AdminEventDetail, step: "start" | "end", numbers: Numbers): ConfirmRequest {
  const paid = numbers?.paid.total;
  const who = paid === undefined ? "every paid participant" : plural(paid, "participant");
  // The end thanks those who came and tells a no-show sorry (docs/decisions/021-results.md).
  const cameLine = numbers
    ? `Texts ${plural(numbers.came, "guest")} who came; ${numbers.noShows} no-show${numbers.noShows === 1 ? "" : "s"}.`
    : `Texts ${who}: a thank-you with their rating link to those who came, a sorry to a no-show.`;
  return {
    title: `${step === "start" ? "Start" : "End"} ${event.name}?`,
    warning: step === "start" ? earlyStartWarning(event.startsAt, event.timeZone) : null,
    lines: [
      step === "start" ? `Texts ${who} their link to like or pass on the people they meet.` : cameLine,
      step === "start" ? "Bookings are closed from now on." : "Feedback results open to everyone who came.",
      "This cannot be undone.",
    ],
    confirmLabel: step === "start" ? "Start Event" : "End Event",
  };
}

/** What Open doors now asks before it goes. */
function openDoorsRequest(event: AdminEventDetail): ConfirmRequest {
  return {
    title: `Open the doors of ${event.name} now?`,
    lines: [
      "The door can check people in from now on.",
      "Nobody is texted, and bookings stay open.",
      "This can't be undone once someone is checked in.",
    ],
    confirmLabel: "Open doors now",
  };
}

/** What Cancel event (or Finish refunds) asks before it goes. */
function cancelRequest(event: AdminEventDetail, numbers: Numbers, finishingRefunds: boolean): ConfirmRequest {
  const paid = numbers?.paid.total;
  const lines =
    paid === undefined
      ? ["Refunds every paid booking and texts every paid participant."]
      : [
          `Refunds ${plural(paid, "payment")}, ${formatAud(numbers?.revenue ?? 0)}.`,
          ...(finishingRefunds ? [] : [`Texts ${plural(paid, "participant")} that the event is cancelled.`]),
        ];
  return {
    title: finishingRefunds ? `Finish the refunds of ${event.name}?` : `Cancel ${event.name}?`,
    lines: finishingRefunds
      ? lines
      : [...lines, "Releases every hold, and the event leaves the home page.", "This cannot be undone."],
    confirmLabel: finishingRefunds ? "Finish refunds" : "Cancel event",
  };
}

/** What a cancel that went through says: the refunds made, and the texts. */
function cancelledMessage(data: { refunded: number; failed: number; sent: number; smsFailed: number }): Message {
  const { refunded, failed, sent, smsFailed } = data;
  const tally = `Refunded ${refunded} of ${refunded + failed}.`;
  return failed === 0
    ? { kind: "ok", text: "Event cancelled.", detail: `${tally} ${smsSummary(sent, smsFailed)}` }
    : {
        kind: "error",
        text: "Event cancelled, but some refunds failed.",
        detail: `${tally} Press Finish refunds to try the rest again.`,
      };
}

function smsSummary(sent: number, failed: number): string {
  const texts = `${sent} text${sent === 1 ? "" : "s"} sent`;
  return failed ? `${texts}; ${failed} could not be delivered yet and will be retried automatically.` : `${texts}.`;
}
