import type { WallClock } from "../../../../common/time-zone.ts";
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

/**
 * A moment of the night on the venue's clock, as a date and a time: when the doors open (3 hours
 * before the start unless changed, docs/decisions/008-door.md; the server refuses one after the start,
 * and a later one once someone is checked in), when the results are released (12:00 PM the day
 * after unless changed, docs/decisions/021-results.md; the server refuses one before the end), and the
 * money rules' times (Credit until, and when Go ahead only with at least is decided; issue 52).
 */
export function VenueDateTimeField<T extends WallClock>(props: {
  /** The start of the fields' ids. */
  id: string;
  /** The start of each label: `Results` gives **Results date**, **Results hour**, **Results minute**. */
  name: string;
  legend: string;
  hint: string;
  value: T;
  minDate?: string;
  onChange(value: T): void;
}) {
  const { id, name, value, onChange } = props;
  return (
    <fieldset className="admin-results-time span-2">
      <legend>{props.legend} (venue's local time)</legend>
      <div className="admin-results-row">
        <div className="field">
          <label htmlFor={`${id}-date`}>{name} date</label>
          <input
            id={`${id}-date`}
            type="date"
            required
            min={props.minDate}
            value={value.date}
            aria-describedby={`${id}-hint`}
            onChange={(e) => onChange({ ...value, date: e.target.value })}
          />
        </div>
        <TimeFields
          idPrefix={id}
          legend={`${name} time (venue's local time)`}
          labelPrefix={name}
          hour={value.hour}
          minute={value.minute}
          onHour={(hour) => onChange({ ...value, hour })}
          onMinute={(minute) => onChange({ ...value, minute })}
        />
      </div>
      <p id={`${id}-hint`} className="admin-hint">
        {props.hint}
      </p>
    </fieldset>
  );
}
