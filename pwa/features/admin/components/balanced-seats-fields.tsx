import { EVENT_LIMITS as L } from "../../../../common/event-limits.ts";
import type { BalancedSeats } from "../balanced-seats.ts";

/** The Balanced seats choice and its two counts (an unticked event sends neither). */
export function BalancedSeatsFields(props: {
  idPrefix: string;
  value: BalancedSeats;
  onChange: (next: BalancedSeats) => void;
}) {
  const { idPrefix, value, onChange } = props;
  return (
    <div className="span-2 admin-balanced">
      <div className="admin-check">
        <input
          id={`${idPrefix}-balanced`}
          type="checkbox"
          checked={value.balanced}
          aria-describedby={`${idPrefix}-balanced-hint`}
          onChange={(e) => onChange({ ...value, balanced: e.target.checked })}
        />
        <label htmlFor={`${idPrefix}-balanced`}>Balanced seats</label>
      </div>
      <p id={`${idPrefix}-balanced-hint`} className="admin-hint">
        Keep a set number of seats for men and for women; together they make the total seats. When one side is full, its
        people can join the waitlist.
      </p>
      {value.balanced ? (
        <div className="admin-balanced-counts">
          <SeatCount
            id={`${idPrefix}-seats-male`}
            label="Seats for men"
            value={value.men}
            onChange={(men) => onChange({ ...value, men })}
          />
          <SeatCount
            id={`${idPrefix}-seats-female`}
            label="Seats for women"
            value={value.women}
            onChange={(women) => onChange({ ...value, women })}
          />
        </div>
      ) : null}
    </div>
  );
}

function SeatCount(props: { id: string; label: string; value: string; onChange: (next: string) => void }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="number"
        required
        min={L.genderSeats.min}
        max={L.genderSeats.max}
        step={1}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}
