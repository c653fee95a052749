import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { MAX_IMAGE_BYTES } from "../../../../common/images.ts";
import { imageUrl, replyError } from "../../../lib/api.ts";
import {
  type AdminEventDetail,
  cancelEvent,
  type EventNumbers,
  endEvent,
  getEventDetail,
  getEventNumbers,
  type LifecycleReply,
  startEvent,
  updateEvent,
  updateEventImage,
} from "../admin-api.ts";
import { type BalancedSeats, balancedSeatsOf, seatsForUpdate, validateBalancedSeats } from "../balanced-seats.ts";
import {
  apiToWallClock,
  formatAtVenue,
  formatAud,
  plural,
  statusLabel,
  tomorrowAt,
  wallClockToApi,
} from "../format.ts";
import type { useAdminEvents } from "../use-admin-events.ts";
import { BalancedSeatsFields } from "./balanced-seats-fields.tsx";
import { useConfirm } from "./confirm-dialog.tsx";
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
  address: string;
  price: string;
  seatPlan: BalancedSeats;
};

const draftOf = (e: AdminEventDetail): Draft => ({
  name: e.event_name,
  zone: e.time_zone,
  ...apiToWallClock(e.EventDateTime, e.time_zone),
  seats: String(e.total_seats),
  duration: String(e.event_duration),
  fromAge: String(e.from_age),
  toAge: String(e.to_age),
  address: e.event_address,
  price: e.booking_amount.toFixed(2),
  seatPlan: balancedSeatsOf(e),
});

/** The event's numbers for a confirmation's sentence; null when they cannot be had (the dialog says less). */
async function numbersOf(eventId: number): Promise<EventNumbers | null> {
  try {
    const reply = await getEventNumbers(eventId);
    return reply.ok && reply.data && "eventId" in reply.data ? reply.data : null;
  } catch (error) {
    console.warn(error);
    return null;
  }
}

export function EditEventForm({ events }: { events: ReturnType<typeof useAdminEvents> }) {
  const [eventId, setEventId] = useState<number | null>(null);
  const [event, setEvent] = useState<AdminEventDetail | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState<"update" | "start" | "end" | "cancel" | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const [image, setImage] = useState<File | null>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  // Paid bookings still unrefunded: a cancelled event with some left offers "Finish refunds".
  const [unrefunded, setUnrefunded] = useState(0);
  const { confirm, dialog } = useConfirm();

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
      setImage(null);
      if (imageInput.current) imageInput.current.value = "";
      setUnrefunded(reply.data.event_status === "cancelled" ? ((await numbersOf(id))?.paid.total ?? 0) : 0);
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
    const seatsProblem = validateBalancedSeats(draft.seatPlan, draft.seats);
    if (seatsProblem) {
      setMessage({ kind: "error", text: seatsProblem });
      return;
    }
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
        eventAddress: draft.address,
        bookingAmount: Number(draft.price),
        ...seatsForUpdate(draft.seatPlan),
      });
      if (reply.ok && reply.data.success) {
        const pictureError = image ? await replacePicture(event.id, image) : null;
        if (pictureError === null) setMessage({ kind: "ok", text: "Event updated successfully!" });
        else if (pictureError !== "locked") {
          setMessage({ kind: "error", text: "Failed to update the event.", detail: pictureError });
        }
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
    const paid = (await numbersOf(event.id))?.paid.total;
    const who = paid === undefined ? "every paid participant" : plural(paid, "participant");
    const go = await confirm({
      title: `${step === "start" ? "Start" : "End"} ${event.event_name}?`,
      lines: [
        step === "start"
          ? `Texts ${who} their link to like or pass on the people they meet.`
          : `Texts ${who} their link to see their matches.`,
        step === "start" ? "Bookings are closed from now on." : "Feedback results open to everyone who came.",
        "This cannot be undone.",
      ],
      confirmLabel: step === "start" ? "Start Event" : "End Event",
    });
    if (!go) return;
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

  const cancel = async () => {
    if (!event || busy) return;
    const numbers = await numbersOf(event.id);
    const retry = event.event_status === "cancelled";
    const paid = numbers?.paid.total;
    const lines =
      paid === undefined
        ? ["Refunds every paid booking and texts every paid participant."]
        : [
            `Refunds ${plural(paid, "payment")}, ${formatAud(numbers?.revenue ?? 0)}.`,
            ...(retry ? [] : [`Texts ${plural(paid, "participant")} that the event is cancelled.`]),
          ];
    const go = await confirm({
      title: retry ? `Finish the refunds of ${event.event_name}?` : `Cancel ${event.event_name}?`,
      lines: retry
        ? lines
        : [...lines, "Releases every hold, and the event leaves the home page.", "This cannot be undone."],
      confirmLabel: retry ? "Finish refunds" : "Cancel event",
    });
    if (!go) return;
    setBusy("cancel");
    setMessage(null);
    try {
      const reply = await cancelEvent(event.id);
      if (reply.ok && reply.data.success) {
        const { refunded, failed, sent, smsFailed } = reply.data;
        const tally = `Refunded ${refunded} of ${refunded + failed}.`;
        setMessage(
          failed === 0
            ? { kind: "ok", text: "Event cancelled.", detail: `${tally} ${smsSummary(sent, smsFailed)}` }
            : {
                kind: "error",
                text: "Event cancelled, but some refunds failed.",
                detail: `${tally} Press Finish refunds to try the rest again.`,
              },
        );
      } else if (reply.status !== 401) {
        setMessage({ kind: "error", text: "Failed to cancel the event.", detail: replyError(reply.data) });
      }
      await load(event.id, true);
      void events.reload();
    } catch (error) {
      console.warn(error);
      setMessage({ kind: "error", text: "Failed to cancel the event.", detail: "The server could not be reached." });
    } finally {
      setBusy(null);
    }
  };

  const ended = event?.event_status === "ended" || event?.event_status === "cancelled";
  // Keeping a date that is already today or past is allowed; a new date must be from tomorrow at the venue.
  const tomorrow = tomorrowAt(draft?.zone ?? event?.time_zone ?? "UTC");
  const storedDate = event && draft ? apiToWallClock(event.EventDateTime, draft.zone).date : null;
  const finishingRefunds = event?.event_status === "cancelled" && unrefunded > 0;
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
            <span className={`admin-badge status-${event.event_status}`}>{statusLabel(event.event_status)}</span>
            <span>{formatAtVenue(event.EventDateTime, event.time_zone)}</span>
            <span>{event.event_address}</span>
            <span>{event.SeatAvailabilityPer}% seats left</span>
            {event.SeatsLeft ? (
              <span>
                Men: {event.SeatsLeft.male} left · Women: {event.SeatsLeft.female} left
              </span>
            ) : null}
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
                <BalancedSeatsFields
                  idPrefix="edit"
                  value={draft.seatPlan}
                  onChange={(plan) => set("seatPlan", plan)}
                />
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
                <div className="field span-2">
                  <label htmlFor="edit-address">Address</label>
                  <input
                    id="edit-address"
                    required
                    maxLength={300}
                    autoComplete="off"
                    value={draft.address}
                    onChange={(e) => set("address", e.target.value)}
                  />
                </div>
                <div className="field">
                  <label htmlFor="edit-amount">Ticket price (AUD)</label>
                  <input
                    id="edit-amount"
                    type="number"
                    required
                    min={0.5}
                    max={100000}
                    step={0.01}
                    aria-describedby="edit-amount-hint"
                    value={draft.price}
                    onChange={(e) => set("price", e.target.value)}
                  />
                  <p id="edit-amount-hint" className="admin-hint">
                    For bookings made from now on; paid bookings keep their price.
                  </p>
                </div>
                <div className="field admin-image-field">
                  <label htmlFor="edit-image">Event image</label>
                  <input
                    ref={imageInput}
                    id="edit-image"
                    type="file"
                    accept="image/jpeg,image/png,image/webp"
                    aria-describedby="edit-image-hint"
                    onChange={(e) => setImage(e.target.files?.[0] ?? null)}
                  />
                  <p id="edit-image-hint" className="admin-hint">
                    {image ? `Replaces the picture with ${image.name}.` : "Choose a file only to replace the picture."}{" "}
                    JPEG, PNG or WebP, up to 5 MB.
                  </p>
                  <img
                    className="admin-preview"
                    src={imageUrl(event.event_image)}
                    alt={`Shown now for ${event.event_name}`}
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
              <button
                type="button"
                className="button admin-end"
                disabled={busy !== null || (!finishingRefunds && event.event_status !== "upcoming")}
                onClick={() => void cancel()}
              >
                {finishingRefunds ? "Finish refunds" : "Cancel event"}
              </button>
            </div>
            {event.event_status === "ended" ? (
              <p className="admin-hint span-2">This event has ended; it can no longer be changed.</p>
            ) : null}
            {event.event_status === "cancelled" ? (
              <p className="admin-hint span-2">
                This event was cancelled; it can no longer be changed.
                {unrefunded > 0 ? ` ${plural(unrefunded, "payment")} still to refund.` : ""}
              </p>
            ) : null}
            <div className="span-2">
              <FormMessage message={message} />
            </div>
          </form>
        </>
      ) : eventId !== null && !loading ? (
        <FormMessage message={message} />
      ) : null}
      {dialog}
    </div>
  );
}

/** Sends the new picture; null when it was replaced, "locked" when the session lapsed, else why not. */
async function replacePicture(eventId: number, image: File): Promise<string | null> {
  if (image.size > MAX_IMAGE_BYTES) return "The picture was not changed: it is over 5 MB.";
  try {
    const reply = await updateEventImage(eventId, image);
    if (reply.ok && reply.data.success) return null;
    if (reply.status === 401) return "locked";
    return `The picture was not changed: ${replyError(reply.data) ?? `HTTP ${reply.status}`}.`;
  } catch (error) {
    console.warn(error);
    return "The picture was not changed: the server could not be reached.";
  }
}

function smsSummary(sent: number, failed: number): string {
  const texts = `${sent} text${sent === 1 ? "" : "s"} sent`;
  return failed ? `${texts}; ${failed} could not be delivered yet and will be retried automatically.` : `${texts}.`;
}
