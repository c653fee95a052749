import type { KeptDoorEvent } from "../../../lib/offline-db.ts";
import { eventLabel } from "../roster-view.ts";

type Props = { events: KeptDoorEvent[]; value: number | null; onChange(id: number | null): void };

/** Events with their venue time; the door view opens on tonight's (roster-view.ts, defaultEventId). */
export function DoorEventPicker({ events, value, onChange }: Props) {
  return (
    <div className="field door-picker">
      <label htmlFor="door-event">Event</label>
      <select
        id="door-event"
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
      >
        <option value="">{events.length ? "Choose an event" : "No events yet"}</option>
        {events.map((e) => (
          <option key={e.id} value={e.id}>
            {eventLabel(e)}
          </option>
        ))}
      </select>
    </div>
  );
}
