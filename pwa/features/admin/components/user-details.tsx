import { useEffect, useRef, useState } from "react";
import { type ConfirmRequest, useConfirm } from "../../../components/ui/confirm-dialog.tsx";
import { EventPicker } from "../../../components/ui/event-picker.tsx";
import { FormMessage, type Message } from "../../../components/ui/form-message.tsx";
import { ReplyView } from "../../../components/ui/reply-view.tsx";
import { type ReplyState, useReply } from "../../../lib/use-reply.ts";
import { getEventUsers, type Participant, refund } from "../admin-api.ts";
import { downloadParticipantsCsv } from "../export-participants.ts";
import { formatAud, plural } from "../format.ts";
import { type RefundOutcome, runRefundBatch } from "../refund-batch.ts";
import type { useAdminEvents } from "../use-admin-events.ts";
import { useWaitlist } from "../use-waitlist.ts";
import { ParticipantsTable, refundable } from "./participants-table.tsx";
import { WaitlistTable } from "./waitlist-table.tsx";

type Rows = { status: "error" } | { status: "ready"; rows: Participant[] };

type Props = {
  events: ReturnType<typeof useAdminEvents>;
  /** The picked event, kept by the panel (an Overview row links here with it picked). */
  eventId: number | null;
  onPick(id: number | null): void;
};

export function UserDetails({ events, eventId, onPick }: Props) {
  // Check-in times read on the venue's clock, like every other time in the panel.
  const picked = events.state.status === "ready" ? events.state.events.find((e) => e.id === eventId) : undefined;
  const zone = picked?.timeZone ?? "UTC";
  const waitlist = useWaitlist(eventId);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [processing, setProcessing] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  // The last batch's outcome per payment, shown on its row until another event is picked.
  const [results, setResults] = useState<Map<string, RefundOutcome>>(new Map());
  const { confirm, dialog } = useConfirm();
  // State updates land a render late; the ref blocks a second batch from the very next click.
  const running = useRef(false);

  const { rows, load } = useParticipants(eventId);
  // Another event picked: the selection, the message and the last batch's outcomes belong to the one before.
  // biome-ignore lint/correctness/useExhaustiveDependencies: eventId is what resets them
  useEffect(() => {
    setSelected(new Set());
    setMessage(null);
    setResults(new Map());
  }, [eventId]);

  const list = rows.status === "ready" ? rows.rows : [];
  const selectable = list.filter(refundable);
  const allSelected = selectable.length > 0 && selectable.every((p) => selected.has(p.payment_intent_id!));

  const toggle = (pi: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(pi)) next.delete(pi);
      else next.add(pi);
      return next;
    });

  const runRefunds = async () => {
    if (running.current) return;
    setMessage(null);
    const intents = selectable.map((p) => p.payment_intent_id!).filter((pi) => selected.has(pi));
    if (intents.length === 0) {
      setMessage({ kind: "error", text: "No participants selected for refund." });
      return;
    }
    running.current = true;
    const go = await confirm(refundRequest(selectable.filter((p) => selected.has(p.payment_intent_id!))));
    if (!go) {
      running.current = false;
      return;
    }
    setProcessing(true);
    try {
      const batch = await runRefundBatch(
        intents,
        async (pi): Promise<RefundOutcome> => {
          const reply = await refund(pi);
          if (reply.ok) return { ok: true };
          return { ok: false, reason: reply.data.error ?? `HTTP ${reply.status}` };
        },
        (m) => window.alert(m),
      );
      setResults(batch.results);
      setSelected(new Set());
      // A refund before the start frees a seat, which goes to the first person waiting.
      if (eventId !== null) await Promise.all([load(eventId, true), waitlist.reload()]);
    } finally {
      running.current = false;
      setProcessing(false);
    }
  };

  const paid = list.filter((p) => p.status === "paid").length;

  return (
    <div className="admin-users">
      <EventPicker id="users-event" events={events} value={eventId} onChange={onPick} />
      <RowsStatus rows={rows} onRetry={() => (eventId === null ? undefined : load(eventId))} />
      {rows.status === "ready" && picked ? (
        <GenderSeats event={picked} participants={list} waitlist={waitlist.state} />
      ) : null}
      {rows.status === "ready" && list.length === 0 ? <p className="empty">Nobody has booked this event yet.</p> : null}
      {rows.status === "ready" && list.length > 0 ? (
        <>
          <Toolbar
            eventId={eventId}
            count={list.length}
            paid={paid}
            selected={selected.size}
            processing={processing}
            onMessage={setMessage}
            onRefund={() => void runRefunds()}
          />
          <FormMessage message={message} />
          <ParticipantsTable
            list={list}
            zone={zone}
            processing={processing}
            selected={selected}
            allSelected={allSelected}
            results={results}
            onToggle={toggle}
            onSelectAll={() =>
              setSelected(allSelected ? new Set() : new Set(selectable.map((p) => p.payment_intent_id!)))
            }
          />
        </>
      ) : null}
      {eventId !== null ? <WaitlistTable state={waitlist.state} zone={zone} onRetry={waitlist.reload} /> : null}
      {dialog}
    </div>
  );
}

/** What Refund asks before it goes: how many payments, and how much in all. */
function refundRequest(chosen: Participant[]): ConfirmRequest {
  const total = chosen.reduce((sum, p) => sum + p.priceCents, 0) / 100;
  return {
    title: `Refund ${plural(chosen.length, "participant")}?`,
    lines: [
      `Refunds ${plural(chosen.length, "payment")}, ${formatAud(total)}.`,
      "The money goes back to each card; this cannot be undone.",
    ],
    confirmLabel: "Refund",
  };
}

/** Before the table: no event picked, the participants loading, or why they could not be read. */
function RowsStatus({ rows, onRetry }: { rows: ReplyState<Rows>; onRetry(): void }) {
  return (
    <ReplyView
      state={rows}
      idle={<p className="empty">Choose an event to see who booked.</p>}
      loading={
        <p role="status" className="admin-loading">
          Loading participants...
        </p>
      }
      error="Couldn't load the participants."
      onRetry={onRetry}
    >
      {() => null}
    </ReplyView>
  );
}

/** The event's participants, read when it is picked and again on request (`quiet`: no loading state). */
function useParticipants(eventId: number | null) {
  const {
    state: rows,
    reload,
    refresh,
  } = useReply(eventId, {
    async load(id: number): Promise<Rows> {
      const reply = await getEventUsers(id);
      return reply.ok && Array.isArray(reply.data) ? { status: "ready", rows: reply.data } : { status: "error" };
    },
    failed(error): Rows {
      console.warn(error);
      return { status: "error" };
    },
  });
  const load = (_id: number, quiet = false) => (quiet ? refresh() : reload());
  return { rows, load };
}

/** How many booked, paid and were refunded, and the table's two actions: Export CSV and Refund. */
function Toolbar(props: {
  eventId: number | null;
  count: number;
  paid: number;
  selected: number;
  processing: boolean;
  onMessage(message: Message): void;
  onRefund(): void;
}) {
  const { eventId, count, paid, selected, processing } = props;
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    if (eventId === null || exporting) return;
    setExporting(true);
    try {
      const outcome = await downloadParticipantsCsv(eventId);
      if (outcome === "failed") props.onMessage({ kind: "error", text: "Couldn't export the participants." });
    } finally {
      setExporting(false);
    }
  };
  return (
    <div className="admin-toolbar">
      <p className="admin-summary">
        {count} participant{count === 1 ? "" : "s"} · {paid} paid · {count - paid} refunded
        {selected ? ` · ${selected} selected` : ""}
      </p>
      <span className="admin-actions-gap" />
      <button
        type="button"
        className="button"
        disabled={exporting}
        aria-busy={exporting}
        onClick={() => void exportCsv()}
      >
        Export CSV
      </button>
      <button
        type="button"
        className="button primary"
        disabled={processing}
        aria-busy={processing}
        onClick={props.onRefund}
      >
        {processing ? "Processing..." : "Refund"}
      </button>
    </div>
  );
}

/** A balanced event's seats per gender: paid of reserved, and how many wait for each side. */
function GenderSeats(props: {
  event: { seatsMale?: number | null; seatsFemale?: number | null };
  participants: Participant[];
  waitlist: ReturnType<typeof useWaitlist>["state"];
}) {
  const { seatsMale, seatsFemale } = props.event;
  if (typeof seatsMale !== "number" || typeof seatsFemale !== "number") return null;
  const paid = (gender: string) => props.participants.filter((p) => p.status === "paid" && p.gender === gender).length;
  const waiting = (gender: string) =>
    props.waitlist.status === "ready" ? props.waitlist.rows.filter((r) => r.gender === gender).length : null;
  const line = (label: string, gender: string, seats: number) => {
    const w = waiting(gender);
    return `${label}: ${paid(gender)}/${seats} paid${w === null ? "" : ` · ${w} waiting`}`;
  };
  return (
    <ul className="admin-gender-seats" aria-label="Seats by gender">
      <li>{line("Men", "male", seatsMale)}</li>
      <li>{line("Women", "female", seatsFemale)}</li>
    </ul>
  );
}
