import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { replyError } from "../../../lib/api.ts";
import {
  type AdminEventDetail,
  endEvent,
  getEventDetail,
  type LifecycleReply,
  startEvent,
  updateEvent,
} from "../admin-api.ts";
import { apiToWallClock, formatAtVenue, tomorrowAt, wallClockToApi } from "../format.ts";
import type { useAdminEvents } from "../use-admin-events.ts";
import { EventPicker } from "./event-picker.tsx";
import { FormMessage, type Message } from "./form-message.tsx";
import { TimeFields, ZoneField } from "./time-fields.tsx";

/** The form's fields; the date and time are the venue's wall clock in `zone`. */
type Draft = {
  name: string;
  zone: string;
  date: string;
  hour: number;
  minute: number;
  seats: string;
  duration: string;
  fromAge: string;
  toAge: string;
};

const draftOf = (e: AdminEventDetail): Draft => ({
  name: e.event_name,
  zone: e.time_zone,
  ...apiToWallClock(e.EventDateTime, e.time_zone),
  seats: String(e.total_seats),
  duration: String(e.event_duration),
  fromAge: String(e.from_age),
  toAge: String(e.to_age),
});

export function EditEventForm({ events }: { events: ReturnType<typeof useAdminEvents> }) {
  const [eventId, setEventId] = useState<number | null>(null);
  const [event, setEvent] = useState<AdminEventDetail | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState<"update" | "start" | "end" | null>(null);
  const [message, setMessage] = useState<Message>(null);

  // The event the picker names now. A reply for an event picked before is dropped, so the form and
  // its Start/End buttons can never act on an event other than the one shown as picked.
  const current = useRef<number | null>(null);
  const load = useCallback(async (id: number, keepMessage = false) => {
    setLoading(true);
    if (!keepMessage) setMessage(null);
    try {
      const reply = await getEventDetail(id);
      if (current.current !== id) return;
      if (!reply.ok) throw new Error(replyError(reply.data) ?? `HTTP ${reply.status}`);
      setEvent(reply.data);
      setDraft(draftOf(reply.data));
    } catch (error) {
      if (current.current !== id) return;
      console.warn(error);
      setEvent(null);
      setDraft(null);
      setMessage({ kind: "error", text: "Couldn't load that event." });
    } finally {
      if (current.current === id) setLoading(false);
    }
  }, []);

  useEffect(() => {
    current.current = eventId;
    setEvent(null);
    setDraft(null);
    if (eventId === null) return;
    void load(eventId);
  }, [eventId, load]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => (d ? { ...d, [key]: value } : d));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!event || !draft || busy) return;
    setBusy("update");
    setMessage(null);
    try {
      const reply = await updateEvent({
        eventid: event.id,
        eventName: draft.name,
        ...wallClockToApi({ date: draft.date, hour: draft.hour, minute: draft.minute }, draft.zone),
        timeZone: draft.zone,
        totalSeats: Number(draft.seats),
        eventduration: Number(draft.duration),
        fromage: Number(draft.fromAge),
        toage: Number(draft.toAge),
      });
      if (reply.ok && reply.data.success) {
        setMessage({ kind: "ok", text: "Event updated successfully!" });
        await load(event.id, true);
        void events.reload();
      } else if (reply.status !== 401) {
        setMessage({ kind: "error", text: "Failed to update the event.", detail: replyError(reply.data) });
      }
    } catch (error) {
      console.warn(error);
      setMessage({ kind: "error", text: "Failed to update the event.", detail: "The server could not be reached." });
    } finally {
      setBusy(null);
    }
  };

  const lifecycle = async (step: "start" | "end") => {
    if (!event || busy) return;
    const ok =
      step === "start" ? "Event has started! SMS sent to participants." : "Event has ended! SMS sent to participants.";
    const failed = step === "start" ? "Failed to start the event." : "Failed to end the event.";
    setBusy(step);
    setMessage(null);
    try {
      const reply = await (step === "start" ? startEvent(event.id) : endEvent(event.id));
      const data: LifecycleReply = reply.data;
      if (reply.ok && data.success) {
        setMessage({ kind: "ok", text: ok, detail: smsSummary(data.sent, data.failed) });
      } else if (reply.status !== 401) {
        setMessage({ kind: "error", text: failed, detail: replyError(reply.data) });
      }
      await load(event.id, true);
      void events.reload();
    } catch (error) {
      console.warn(error);
      setMessage({ kind: "error", text: failed, detail: "The server could not be reached." });
    } finally {
      setBusy(null);
    }
  };

  const ended = event?.event_status === "ended";
  // Keeping a date that is already today or past is allowed; a new date must be from tomorrow at the venue.
  const tomorrow = tomorrowAt(draft?.zone ?? event?.time_zone ?? "UTC");
  const storedDate = event && draft ? apiToWallClock(event.EventDateTime, draft.zone).date : null;
  const minDate = storedDate && storedDate < tomorrow ? storedDate : tomorrow;

  return (
    <div className="admin-edit">
      <EventPicker id="edit-event" events={events} value={eventId} onChange={setEventId} />
      {eventId === null ? <p className="empty">Choose an event to edit, start or end it.</p> : null}
      {loading && !event ? (
        <p role="status" className="admin-loading">
          Loading event...
        </p>
      ) : null}
      {event && draft ? (
        <>
          <div className="admin-event-head">
            <span className={`admin-badge status-${event.event_status}`}>{event.event_status}</span>
            <span>{formatAtVenue(event.EventDateTime, event.time_zone)}</span>
            <span>{event.event_address}</span>
            <span>{event.SeatAvailabilityPer}% seats left</span>
          </div>
          <form className="admin-form" onSubmit={(e) => void submit(e)}>
            <fieldset disabled={ended} className="admin-fieldset span-2">
              <div className="admin-form-grid">
                <div className="field span-2">
                  <label htmlFor="edit-name">Event name</label>
                  <input
                    id="edit-name"
                    required
                    maxLength={120}
                    value={draft.name}
                    onChange={(e) => set("name", e.target.value)}
                  />
                </div>
                <ZoneField id="edit-zone" value={draft.zone} onChange={(zone) => set("zone", zone)} />
                <div className="field">
                  <label htmlFor="edit-date">Date</label>
                  <input
                    id="edit-date"
                    type="date"
                    required
                    min={minDate}
                    value={draft.date}
                    onChange={(e) => set("date", e.target.value)}
                  />
                </div>
                <TimeFields
                  idPrefix="edit"
                  hour={draft.hour}
                  minute={draft.minute}
                  onHour={(h) => set("hour", h)}
                  onMinute={(m) => set("minute", m)}
                />
                <div className="field">
                  <label htmlFor="edit-seats">Total seats</label>
                  <input
                    id="edit-seats"
                    type="number"
                    required
                    min={1}
                    max={10000}
                    step={1}
                    value={draft.seats}
                    onChange={(e) => set("seats", e.target.value)}
                  />
                </div>
                <div className="field">
                  <label htmlFor="edit-duration">Duration (hours)</label>
                  <input
                    id="edit-duration"
                    type="number"
                    min={0.25}
                    max={24}
                    step={0.25}
                    value={draft.duration}
                    onChange={(e) => set("duration", e.target.value)}
                  />
                </div>
                <div className="field">
                  <label htmlFor="edit-from-age">From age</label>
                  <input
                    id="edit-from-age"
                    type="number"
                    min={18}
                    max={99}
                    value={draft.fromAge}
                    onChange={(e) => set("fromAge", e.target.value)}
                  />
                </div>
                <div className="field">
                  <label htmlFor="edit-to-age">To age</label>
                  <input
                    id="edit-to-age"
                    type="number"
                    min={18}
                    max={99}
                    value={draft.toAge}
                    onChange={(e) => set("toAge", e.target.value)}
                  />
                </div>
              </div>
            </fieldset>
            <div className="span-2 admin-actions">
              <button type="submit" className="button primary" disabled={ended || busy !== null}>
                Update Event
              </button>
              <span className="admin-actions-gap" />
              <button
                type="button"
                className="button admin-start"
                disabled={event.event_status !== "upcoming" || busy !== null}
                onClick={() => void lifecycle("start")}
              >
                Start Event
              </button>
              <button
                type="button"
                className="button admin-end"
                disabled={event.event_status !== "started" || busy !== null}
                onClick={() => void lifecycle("end")}
              >
                End Event
              </button>
            </div>
            {ended ? <p className="admin-hint span-2">This event has ended; it can no longer be changed.</p> : null}
            <div className="span-2">
              <FormMessage message={message} />
            </div>
          </form>
        </>
      ) : eventId !== null && !loading ? (
        <FormMessage message={message} />
      ) : null}
    </div>
  );
}

function smsSummary(sent: number, failed: number): string {
  const texts = `${sent} text${sent === 1 ? "" : "s"} sent`;
  return failed ? `${texts}; ${failed} could not be delivered yet and will be retried automatically.` : `${texts}.`;
}
