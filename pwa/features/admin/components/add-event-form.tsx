import { type FormEvent, useEffect, useRef, useState } from "react";
import { DEFAULT_TIME_ZONE } from "../../../../common/time-zone.ts";
import { replyError } from "../../../lib/api.ts";
import { eventDefaults, saveEvent } from "../admin-api.ts";
import { type BalancedSeats, validateBalancedSeats } from "../balanced-seats.ts";
import { tomorrowAt, wallClockToApi } from "../format.ts";
import { BalancedSeatsFields } from "./balanced-seats-fields.tsx";
import { FormMessage, type Message } from "./form-message.tsx";
import { TimeFields, ZoneField } from "./time-fields.tsx";

/** The zone new events start with: EVENT_TIME_ZONE from the server, until the organiser picks another. */
function useDefaultZone() {
  const [zone, setZone] = useState(DEFAULT_TIME_ZONE);
  const picked = useRef(false);
  useEffect(() => {
    let live = true;
    eventDefaults()
      .then((reply) => {
        const configured = reply.ok ? reply.data?.eventTimeZone : undefined;
        if (live && configured && !picked.current) setZone(configured);
      })
      .catch((error: unknown) => console.warn(error));
    return () => {
      live = false;
    };
  }, []);
  const pick = (next: string) => {
    picked.current = true;
    setZone(next);
  };
  return [zone, pick] as const;
}

// The inputs are named as the API's fields, so the form's own FormData is the request.
export function AddEventForm({ onSaved }: { onSaved(): void }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [zone, setZone] = useDefaultZone();
  const [seats, setSeats] = useState<BalancedSeats>({ balanced: false, men: "", women: "" });

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const form = e.currentTarget;
    const data = new FormData(form);
    const seatsProblem = validateBalancedSeats(seats, String(data.get("totalSeats") ?? ""));
    if (seatsProblem) {
      setMessage({ kind: "error", text: seatsProblem });
      return;
    }
    // Typed as the venue's wall clock, sent as SPEC.md's UTC date and H:M time.
    const utc = wallClockToApi(
      { date: String(data.get("localDate")), hour: Number(data.get("hour")), minute: Number(data.get("minute")) },
      zone,
    );
    data.set("eventDate", utc.eventDate);
    data.set("eventTime", utc.eventTime);
    data.set("timeZone", zone);
    for (const local of ["localDate", "hour", "minute"]) data.delete(local);
    setBusy(true);
    setMessage(null);
    try {
      const reply = await saveEvent(data);
      if (reply.ok && reply.data.success) {
        setMessage({ kind: "ok", text: "Event saved successfully!" });
        form.reset();
        setSeats({ balanced: false, men: "", women: "" });
        setPreview(null);
        onSaved();
      } else if (reply.status !== 401) {
        setMessage({ kind: "error", text: "Failed to save the event.", detail: replyError(reply.data) });
      }
    } catch (error) {
      console.warn(error);
      setMessage({ kind: "error", text: "Failed to save the event.", detail: "The server could not be reached." });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="admin-form" onSubmit={(e) => void submit(e)}>
      <div className="field span-2">
        <label htmlFor="add-name">Event name</label>
        <input id="add-name" name="eventName" required maxLength={120} />
      </div>
      <ZoneField id="add-zone" value={zone} onChange={setZone} />
      <div className="field">
        <label htmlFor="add-date">Date</label>
        <input id="add-date" name="localDate" type="date" required min={tomorrowAt(zone)} />
      </div>
      <TimeFields idPrefix="add" names={{ hour: "hour", minute: "minute" }} />
      <div className="field span-2">
        <label htmlFor="add-address">Address</label>
        <input id="add-address" name="eventAddress" required maxLength={300} autoComplete="off" />
      </div>
      <div className="field">
        <label htmlFor="add-seats">Total seats</label>
        <input id="add-seats" name="totalSeats" type="number" required min={1} max={10000} step={1} />
      </div>
      <BalancedSeatsFields idPrefix="add" value={seats} onChange={setSeats} named />
      <div className="field">
        <label htmlFor="add-amount">Ticket price (AUD)</label>
        <input id="add-amount" name="bookingAmount" type="number" required min={0} max={100000} step={0.01} />
      </div>
      <div className="field">
        <label htmlFor="add-duration">Duration (hours)</label>
        <input id="add-duration" name="eventduration" type="number" required min={0.25} max={24} step={0.25} />
      </div>
      <div className="field">
        <label htmlFor="add-from-age">From age</label>
        <input id="add-from-age" name="fromage" type="number" required min={18} max={99} step={1} />
      </div>
      <div className="field">
        <label htmlFor="add-to-age">To age</label>
        <input id="add-to-age" name="toage" type="number" required min={18} max={99} step={1} />
      </div>
      <div className="field span-2 admin-image-field">
        <label htmlFor="add-image">Event image</label>
        <input
          id="add-image"
          name="eventImage"
          type="file"
          required
          accept="image/jpeg,image/png,image/webp"
          onChange={(e) => {
            const file = e.target.files?.[0];
            setPreview((old) => {
              if (old) URL.revokeObjectURL(old);
              return file ? URL.createObjectURL(file) : null;
            });
          }}
        />
        {preview ? <img className="admin-preview" src={preview} alt="Preview of the chosen file" /> : null}
        <p className="admin-hint">JPEG, PNG or WebP, up to 5 MB.</p>
      </div>
      <div className="span-2 admin-actions">
        <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
          Save Event
        </button>
      </div>
      <div className="span-2">
        <FormMessage message={message} />
      </div>
    </form>
  );
}
