import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ReplyView } from "../../../components/ui/reply-view.tsx";
import { useAdminStore } from "../../../lib/admin-store.ts";
import { useOnline } from "../../../lib/use-online.ts";
import { UNDO_WINDOW_MS, useDoorStore } from "../door-store.ts";
import { findByCode } from "../find-by-code.ts";
import { cameraUsable, type TicketRef } from "../qr-decoder.ts";
import { countArrivals, type DoorAttendee, matchesQuery, withPending, zoneOf } from "../roster-view.ts";
import { useDoorSync } from "../use-door-sync.ts";
import { ArrivalsSummary } from "./arrivals-summary.tsx";
import { AttendeeRow } from "./attendee-row.tsx";
import { DoorEventPicker } from "./door-event-picker.tsx";
import { DoorsOpenNotice, useDoorsOpen } from "./doors-open-notice.tsx";
import { ScanDialog } from "./scan-dialog.tsx";
import "../door.css";
import { MessageGuests } from "../../guest-messages/index.ts";

/** Re-renders when the earliest Undo offer runs out, so it disappears on time. */
function useUndoClock(recent: Record<number, number>): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const expiries = Object.values(recent)
      .map((t) => t + UNDO_WINDOW_MS)
      .filter((t) => t > now);
    if (expiries.length === 0) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(...expiries) - Date.now() + 50);
    return () => clearTimeout(timer);
  }, [recent, now]);
  return now;
}

type Scanned = { kind: "found"; userID: number } | { kind: "problem"; message: string };

/** The door: pick the night, see who is in, find or scan an attendee, check them in with one tap. */
export function DoorView() {
  useDoorSync();
  const { events, eventID, roster, pending, recent, notices, select, checkIn, undo, dismiss } = useDoorStore();
  const online = useOnline();
  // A host's phone has one event: no picker (docs/decisions/022-host-access.md).
  const hostMode = useAdminStore((s) => s.host !== null);
  const now = useUndoClock(recent);
  const [query, setQuery] = useState("");
  const [notArrivedOnly, setNotArrivedOnly] = useState(false);
  const [scanned, setScanned] = useState<Scanned | null>(null);
  const [camera] = useState(cameraUsable);

  const ready = roster.status === "ready" ? roster : null;
  const attendees = useMemo(() => (ready ? withPending(ready.roster.attendees, pending) : []), [ready, pending]);
  const zone = ready ? zoneOf(ready.roster.event) : zoneOf({});
  const counts = countArrivals(attendees);
  // Before the doors open (the event's doors-open time, on this phone's clock) nobody can be checked in.
  const doorsOpen = useDoorsOpen(ready?.roster.event.doorsOpenAt);
  // An ended or cancelled night stays readable (a host link keeps it), but nobody arrives any more.
  const nightOver = ready?.roster.event.status === "ended" || ready?.roster.event.status === "cancelled";
  const codeMatch = useCodeMatch(ready, query);
  const shown = attendees.filter(
    (a) => (a.userID === codeMatch || matchesQuery(a, query)) && (!notArrivedOnly || a.checkedInAt === null),
  );
  const canUndo = (a: DoorAttendee) => {
    const at = recent[a.userID];
    return at !== undefined && now - at < UNDO_WINDOW_MS;
  };

  const onScanned = useCallback((ticket: TicketRef | null) => {
    const result = judgeTicket(ticket);
    if (result.kind === "found") setQuery("");
    setScanned(result);
  }, []);

  const found = scanned?.kind === "found" ? attendees.find((a) => a.userID === scanned.userID) : undefined;
  const row = (a: DoorAttendee, idPrefix: string, autoFocus = false) => (
    <AttendeeRow
      key={a.userID}
      attendee={a}
      zone={zone}
      canUndo={canUndo(a)}
      doorsClosed={!doorsOpen || nightOver}
      idPrefix={idPrefix}
      autoFocus={autoFocus}
      onCheckIn={(id) => void checkIn(id)}
      onUndo={(id) => void undo(id)}
    />
  );

  return (
    <div className="door">
      <ReplyView state={events} loading={LOADING_EVENTS}>
        {(loaded) =>
          hostMode ? null : (
            <DoorEventPicker
              events={loaded.events}
              value={eventID}
              onChange={(id) => {
                setScanned(null);
                setQuery("");
                void select(id);
              }}
            />
          )
        }
      </ReplyView>

      <DoorNotices notices={notices} dismiss={dismiss} />

      <ReplyView
        state={roster}
        idle={events.status === "ready" ? CHOOSE_EVENT : null}
        loading={LOADING_ATTENDEES}
        onRetry={() => useDoorStore.getState().refresh()}
      >
        {(ready) => (
          <>
            <ArrivalsSummary
              counts={counts}
              waiting={pending.length}
              kept={ready.kept}
              online={online}
              bySide={(ready.roster.event.format ?? "women_men") === "women_men"}
            />
            {nightOver ? (
              <NightOverNotice cancelled={ready.roster.event.status === "cancelled"} />
            ) : doorsOpen ? null : (
              <DoorsOpenNotice event={ready.roster.event} online={online} />
            )}
            {/* One text to the room (docs/decisions/019-running-the-night.md), until the night has ended. */}
            {ready.roster.event.status === "upcoming" || ready.roster.event.status === "started" ? (
              <MessageGuests eventID={ready.roster.event.id} disabled={!online} />
            ) : null}
            <ScanResult
              problem={scanned?.kind === "problem" ? scanned.message : null}
              found={found ? row(found, "scan", true) : null}
              onDismiss={() => setScanned(null)}
            />
            <DoorSearch
              query={query}
              onQuery={setQuery}
              notArrivedOnly={notArrivedOnly}
              onToggle={() => setNotArrivedOnly((v) => !v)}
            />
            {attendees.length === 0 ? <p className="empty">Nobody has a paid ticket for this event yet.</p> : null}
            {attendees.length > 0 && shown.length === 0 ? <p className="empty">No attendee matches.</p> : null}
            <ul className="door-list" aria-label="Attendees">
              {shown.map((a) => row(a, "row"))}
            </ul>

            <ScanTicket camera={camera} onOpen={() => setScanned(null)} onResult={onScanned} />
          </>
        )}
      </ReplyView>
    </div>
  );
}

const LOADING_EVENTS = (
  <p role="status" className="door-loading">
    Loading events...
  </p>
);
const CHOOSE_EVENT = <p className="empty">Choose an event to see who is coming.</p>;
const LOADING_ATTENDEES = (
  <p role="status" className="door-loading">
    Loading attendees...
  </p>
);

/** A typed ticket code finds its attendee on the phone, offline too (the roster's keyed hashes). */
function useCodeMatch(ready: { roster: Parameters<typeof findByCode>[0] } | null, query: string): number | null {
  const [codeMatch, setCodeMatch] = useState<number | null>(null);
  useEffect(() => {
    let current = true;
    setCodeMatch(null);
    if (ready && query.trim()) {
      void findByCode(ready.roster, query).then((userID) => {
        if (current) setCodeMatch(userID);
      });
    }
    return () => {
      current = false;
    };
  }, [ready, query]);
  return codeMatch;
}

/** What a scanned ticket is at this door: one of tonight's paid guests, or why it must not be checked in. */
function judgeTicket(ticket: TicketRef | null): Scanned {
  const current = useDoorStore.getState();
  const kept = current.roster.status === "ready" ? current.roster.roster : null;
  if (!ticket) return { kind: "problem", message: "This QR code is not a ticket for our events." };
  if (ticket.eventID !== current.eventID) {
    const other =
      current.events.status === "ready" ? current.events.events.find((e) => e.id === ticket.eventID) : undefined;
    return {
      kind: "problem",
      message: other
        ? `This ticket is for another event: ${other.name}. Do not check it in here.`
        : "This ticket is for another event. Do not check it in here.",
    };
  }
  if (kept?.attendees.some((a) => a.userID === ticket.userID)) return { kind: "found", userID: ticket.userID };
  const refunded = kept?.refunded.find((a) => a.userID === ticket.userID);
  return {
    kind: "problem",
    message: refunded
      ? `This booking was refunded (${refunded.name}). Do not check it in.`
      : "No paid booking matches this ticket. Do not check it in.",
  };
}

/** A typed ticket code, looked up on this phone in the night's roster. */
async function findCode(code: string): Promise<TicketRef | null> {
  const current = useDoorStore.getState();
  if (current.eventID === null || current.roster.status !== "ready") return null;
  const eventID = current.eventID;
  const userID = await findByCode(current.roster.roster, code);
  return userID === null ? null : { eventID, userID };
}

/** What went wrong at the door (a check-in the server refused), each until dismissed. */
function DoorNotices(props: {
  notices: ReturnType<typeof useDoorStore.getState>["notices"];
  dismiss(id: number): void;
}) {
  if (!props.notices.length) return null;
  return (
    <div className="door-notices" role="alert">
      {props.notices.map((n) => (
        <div key={n.id} className="notice error door-notice">
          <p>{n.message}</p>
          <button type="button" className="button" onClick={() => props.dismiss(n.id)}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}

/** The last scan: why the ticket must not be checked in, or its attendee's row. */
function ScanResult(props: { problem: string | null; found: ReactNode; onDismiss(): void }) {
  return (
    <div className="door-scan-result" aria-live="polite">
      {props.problem !== null ? (
        <div className="notice error door-notice" role="alert">
          <p>{props.problem}</p>
          <button type="button" className="button" onClick={props.onDismiss}>
            Dismiss
          </button>
        </div>
      ) : null}
      {props.found ? (
        <section className="door-scanned" aria-labelledby="door-scanned-title">
          <div className="door-scanned-head">
            <h2 id="door-scanned-title">Scanned ticket</h2>
            <button type="button" className="button" onClick={props.onDismiss}>
              Done
            </button>
          </div>
          <ul className="door-list">{props.found}</ul>
        </section>
      ) : null}
    </div>
  );
}

/** Find attendee, and Not arrived only. */
function DoorSearch(props: { query: string; onQuery(query: string): void; notArrivedOnly: boolean; onToggle(): void }) {
  return (
    <div className="door-search">
      <div className="field">
        <label htmlFor="door-find">Find attendee</label>
        <input
          id="door-find"
          type="search"
          inputMode="search"
          autoComplete="off"
          placeholder="Name, last digits of phone, or ticket code"
          value={props.query}
          onChange={(e) => props.onQuery(e.target.value)}
        />
      </div>
      <button type="button" className="button door-filter" aria-pressed={props.notArrivedOnly} onClick={props.onToggle}>
        Not arrived only
      </button>
    </div>
  );
}

function NightOverNotice({ cancelled }: { cancelled: boolean }) {
  return (
    <p id="door-doors-closed" className="notice door-notice">
      This night has {cancelled ? "been cancelled" : "ended"}, so the list is read-only.
    </p>
  );
}

/** Scan ticket, and the scanner while it is open; the focus goes back to the button when it closes. */
function ScanTicket(props: { camera: boolean; onOpen(): void; onResult(ticket: TicketRef | null): void }) {
  const { onResult } = props;
  const [scanning, setScanning] = useState(false);
  const scanButton = useRef<HTMLButtonElement>(null);
  const onScanned = useCallback(
    (ticket: TicketRef | null) => {
      setScanning(false);
      onResult(ticket);
    },
    [onResult],
  );
  const closeScanner = useCallback(() => {
    setScanning(false);
    scanButton.current?.focus();
  }, []);
  return (
    <>
      {/* Without a camera, Scan ticket still opens: the dialog then asks for the ticket's code. */}
      <div className="door-actions">
        <button
          ref={scanButton}
          type="button"
          className="button primary door-scan"
          onClick={() => {
            props.onOpen();
            setScanning(true);
          }}
        >
          Scan ticket
        </button>
      </div>
      {scanning ? (
        <ScanDialog camera={props.camera} findCode={findCode} onResult={onScanned} onClose={closeScanner} />
      ) : null}
    </>
  );
}
