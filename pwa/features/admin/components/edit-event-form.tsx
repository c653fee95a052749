import { type FormEvent, type RefObject, useEffect, useRef, useState } from "react";
import { EventPicker } from "../../../components/ui/event-picker.tsx";
import { FormMessage } from "../../../components/ui/form-message.tsx";
import { imageUrl } from "../../../lib/api.ts";
import { apiToWallClock, formatAtVenue, plural, seatsLeftLabel, statusLabel, tomorrowAt } from "../format.ts";
import type { useAdminEvents } from "../use-admin-events.ts";
import { useEventEditor } from "../use-event-editor.ts";
import { EventFields } from "./event-fields.tsx";
import { EventLifecycleActions } from "./event-lifecycle-actions.tsx";
import { PromoCodesPanel } from "./promo-codes-panel.tsx";
import { VenueDateTimeField } from "./time-fields.tsx";

type EditedEvent = NonNullable<ReturnType<typeof useEventEditor>["event"]>;

/** The Edit tab: pick an event, change its fields and picture, and start, end or cancel it. */
export function EditEventForm(props: {
  events: ReturnType<typeof useAdminEvents>;
  eventId: number | null;
  onPick(id: number | null): void;
}) {
  const { events } = props;
  const editor = useEventEditor(props.eventId, () => void events.reload());
  const { event, draft, image } = editor;
  const imageInput = useRef<HTMLInputElement>(null);
  const [acting, setActing] = useState(false);
  // A reload (after saving, or another event picked) clears the chosen file.
  useEffect(() => {
    if (image === null && imageInput.current) imageInput.current.value = "";
  }, [image]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!acting) void editor.save();
  };

  const ended = event?.status === "ended" || event?.status === "cancelled";
  // Keeping a date that is already today or past is allowed; a new date must be from tomorrow at the venue.
  const tomorrow = tomorrowAt(draft?.zone ?? event?.timeZone ?? "UTC");
  const storedDate = event && draft ? apiToWallClock(event.startsAt, draft.zone).date : null;
  const minDate = storedDate && storedDate < tomorrow ? storedDate : tomorrow;

  return (
    <div className="admin-edit">
      <EventPicker id="edit-event" events={events} value={editor.eventId} onChange={props.onPick} />
      {editor.eventId === null ? <p className="empty">Choose an event to edit, start or end it.</p> : null}
      {editor.loading && !event ? (
        <p role="status" className="admin-loading">
          Loading event...
        </p>
      ) : null}
      {event && draft ? (
        <>
          <EventHead event={event} />
          <form className="admin-form" onSubmit={submit}>
            <fieldset disabled={ended} className="admin-fieldset span-2">
              <div className="admin-form-grid">
                <EventFields
                  idPrefix="edit"
                  draft={draft}
                  onChange={editor.set}
                  minDate={minDate}
                  priceHint="For bookings made from now on; paid bookings keep their price."
                  picture={
                    <EditImageField
                      event={event}
                      image={image}
                      inputRef={imageInput}
                      onChange={(file) => editor.setImage(file)}
                    />
                  }
                />
                {draft.results ? (
                  <VenueDateTimeField
                    id="edit-results"
                    name="Results"
                    legend="Results released at"
                    hint="Guests rate until then and are texted their matches at that time. Default: 12:00 PM the day after the event. Release results on the Rounds tab sends them sooner."
                    value={draft.results}
                    minDate={storedDate ?? tomorrow}
                    onChange={(results) => editor.set("results", results)}
                  />
                ) : null}
                {draft.doors ? (
                  <VenueDateTimeField
                    id="edit-doors"
                    name="Doors"
                    legend="Doors open at"
                    hint="The door checks people in from then, and host links work from then. Default: 3 hours before the start. Open doors now opens them at once without starting the event."
                    value={draft.doors}
                    onChange={(doors) => editor.set("doors", doors)}
                  />
                ) : null}
              </div>
            </fieldset>
            <div className="span-2 admin-actions">
              <button type="submit" className="button primary" disabled={ended || editor.saving || acting}>
                Update Event
              </button>
              <span className="admin-actions-gap" />
              <EventLifecycleActions
                event={event}
                unrefunded={editor.unrefunded}
                blocked={editor.saving}
                onMessage={editor.setMessage}
                onBusy={setActing}
                onDone={() => editor.reload(event.id)}
              />
            </div>
            <ClosedNote event={event} unrefunded={editor.unrefunded} />
            <div className="span-2">
              <FormMessage message={editor.message} />
            </div>
          </form>
          <PromoCodesPanel eventId={event.id} zone={event.timeZone} readOnly={ended} />
        </>
      ) : editor.eventId !== null && !editor.loading ? (
        <FormMessage message={editor.message} />
      ) : null}
    </div>
  );
}

/** The event as it stands: its status, when and where, and the seats left. */
function EventHead({ event }: { event: EditedEvent }) {
  return (
    <div className="admin-event-head">
      <span className={`admin-badge status-${event.status}`}>{statusLabel(event.status)}</span>
      <span>{formatAtVenue(event.startsAt, event.timeZone)}</span>
      <span>{event.address}</span>
      <span>{seatsLeftLabel(event)}</span>
      {event.SeatsLeft ? (
        <span>
          Men: {event.SeatsLeft.male} left · Women: {event.SeatsLeft.female} left
        </span>
      ) : null}
    </div>
  );
}

/** The picture: the one shown now, and a file chosen only to replace it. */
function EditImageField(props: {
  event: EditedEvent;
  image: File | null;
  inputRef: RefObject<HTMLInputElement | null>;
  onChange(file: File | null): void;
}) {
  const { event, image } = props;
  return (
    <div className="field admin-image-field">
      <label htmlFor="edit-image">Event image</label>
      <input
        ref={props.inputRef}
        id="edit-image"
        type="file"
        accept="image/jpeg,image/png,image/webp"
        aria-describedby="edit-image-hint"
        onChange={(e) => props.onChange(e.target.files?.[0] ?? null)}
      />
      <p id="edit-image-hint" className="admin-hint">
        {image ? `Replaces the picture with ${image.name}.` : "Choose a file only to replace the picture."} JPEG, PNG or
        WebP, up to 5 MB.
      </p>
      <img className="admin-preview" src={imageUrl(event.imageName)} alt={`Shown now for ${event.name}`} />
    </div>
  );
}

/** Why an ended or cancelled event can no longer be changed, and what it still has to refund. */
function ClosedNote({ event, unrefunded }: { event: EditedEvent; unrefunded: number }) {
  return (
    <>
      {event.status === "ended" ? (
        <p className="admin-hint span-2">This event has ended; it can no longer be changed.</p>
      ) : null}
      {event.status === "cancelled" ? (
        <p className="admin-hint span-2">
          This event was cancelled; it can no longer be changed.
          {unrefunded > 0 ? ` ${plural(unrefunded, "payment")} still to refund.` : ""}
        </p>
      ) : null}
    </>
  );
}
