import { AUSTRALIAN_TIME_ZONES } from "../../../../common/venue-time-input.ts";
import { HOURS, MINUTES } from "../format.ts";

type Props = {
  idPrefix: string;
  hour: number;
  minute: number;
  onHour(h: number): void;
  onMinute(m: number): void;
  /** What the two fields set, for screen readers. */
  legend?: string;
  /** Names the fields apart from the start's when a form has two times ("Results" hour). */
  labelPrefix?: string;
};

const pad = (n: number) => String(n).padStart(2, "0");

/** Hours 0-23 and minutes 0, 15, 30, 45 (the only ones the server takes), on the venue's clock. */
export function TimeFields({ idPrefix, hour, minute, onHour, onMinute, legend, labelPrefix }: Props) {
  return (
    <fieldset className="admin-time">
      {/* For screen readers; shown, it would push the row out of line with the Date field. */}
      <legend className="sr-only">{legend ?? "Start time (venue's local time)"}</legend>
      <div className="field">
        <label htmlFor={`${idPrefix}-hour`}>{labelPrefix ? `${labelPrefix} hour` : "Hour"}</label>
        <select id={`${idPrefix}-hour`} value={hour} onChange={(e) => onHour(Number(e.target.value))}>
          {HOURS.map((h) => (
            <option key={h} value={h}>
              {pad(h)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-minute`}>{labelPrefix ? `${labelPrefix} minute` : "Minute"}</label>
        <select id={`${idPrefix}-minute`} value={minute} onChange={(e) => onMinute(Number(e.target.value))}>
          {/* A time set by Open doors now is on any minute: show it as it is rather than as 00. */}
          {((MINUTES as readonly number[]).includes(minute) ? MINUTES : [...MINUTES, minute].sort((a, b) => a - b)).map(
            (m) => (
              <option key={m} value={m}>
                {pad(m)}
              </option>
            ),
          )}
        </select>
      </div>
    </fieldset>
  );
}

/** The venue's time zone: the Australian zones, plus the event's own if it is another. */
export function ZoneField(props: { id: string; value: string; onChange(zone: string): void }) {
  const known = AUSTRALIAN_TIME_ZONES.some((z) => z.zone === props.value);
  return (
    <div className="field">
      <label htmlFor={props.id}>Time zone</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {known ? null : <option value={props.value}>{props.value}</option>}
        {AUSTRALIAN_TIME_ZONES.map((z) => (
          <option key={z.zone} value={z.zone}>
            {z.label}
          </option>
        ))}
      </select>
    </div>
  );
}
