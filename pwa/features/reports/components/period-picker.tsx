import { useId } from "react";
import { type Months, PERIOD_KINDS, type PeriodKind } from "../period.ts";

type Props = {
  kind: PeriodKind;
  /** The two months of **Any two months**. */
  picked: Months;
  onKind(kind: PeriodKind): void;
  onPicked(months: Months): void;
};

/**
 * The period the reports cover: **This month** (the default), **Last quarter**, **This financial year**
 * or **Any two months**, the first and the last month picked (both included). Radio buttons: the
 * arrow keys move between them.
 */
export function PeriodPicker({ kind, picked, onKind, onPicked }: Props) {
  const id = useId();
  return (
    <fieldset className="report-period">
      <legend>Period</legend>
      <div className="report-period-kinds">
        {PERIOD_KINDS.map((k) => (
          <label key={k} className="report-period-kind">
            <input type="radio" name={`${id}-kind`} value={k} checked={kind === k} onChange={() => onKind(k)} />
            {k}
          </label>
        ))}
      </div>
      {kind === "Any two months" ? (
        <div className="report-period-months">
          <label htmlFor={`${id}-from`}>
            First month
            <input
              id={`${id}-from`}
              type="month"
              value={picked.from}
              onChange={(e) => onPicked({ ...picked, from: e.target.value })}
            />
          </label>
          <label htmlFor={`${id}-to`}>
            Last month
            <input
              id={`${id}-to`}
              type="month"
              value={picked.to}
              onChange={(e) => onPicked({ ...picked, to: e.target.value })}
            />
          </label>
        </div>
      ) : null}
    </fieldset>
  );
}
