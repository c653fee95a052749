import { EVENT_LIMITS as L } from "../../../../common/event-limits.ts";
import { splitsByGender } from "../../../../common/formats.ts";
import { NO_MATCH_PROMISE } from "../../../../common/no-match-promise.ts";
import type { EventDraft } from "../event-draft.ts";
import { creditUntilShown, type MoneyRulesDraft, minimumByShown } from "../money-rules-draft.ts";
import { VenueDateTimeField } from "./time-fields.tsx";

type Props = {
  idPrefix: string;
  draft: EventDraft;
  onChange(money: MoneyRulesDraft): void;
};

/**
 * The money rules of a night (issue 52), on Add and Edit alike: **Credit until**, **Go ahead only with
 * at least** (off by default) and the no-match promise. Each time shows its default (the start; 48
 * hours before it) until the organiser changes it, and keeps following the start till then.
 */
export function MoneyRulesFields({ idPrefix, draft, onChange }: Props) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const money = draft.money;
  const minimum = money.minimum;
  const setMinimum = (change: Partial<MoneyRulesDraft["minimum"]>) =>
    onChange({ ...money, minimum: { ...minimum, ...change } });
  const count = (key: "women" | "men" | "total", label: string) => (
    <div className="field">
      <label htmlFor={id(`minimum-${key}`)}>{label}</label>
      <input
        id={id(`minimum-${key}`)}
        type="number"
        required
        min={L.minimumBookings.min}
        max={L.minimumBookings.max}
        step={1}
        value={minimum[key]}
        onChange={(e) => setMinimum({ [key]: e.target.value })}
      />
    </div>
  );
  return (
    <>
      <VenueDateTimeField
        id={id("credit-until")}
        name="Credit until"
        legend="Credit until"
        hint="Until then, a guest who cancels may take the full price as credit towards another night instead of a refund. Default: the start."
        value={creditUntilShown(money, draft)}
        onChange={(creditUntil) => onChange({ ...money, creditUntil })}
      />
      <fieldset className="admin-results-time span-2">
        <legend className="sr-only">Go ahead only with at least</legend>
        <div className="admin-check">
          <input
            id={id("minimum")}
            type="checkbox"
            checked={minimum.on}
            aria-describedby={id("minimum-hint")}
            onChange={(e) => setMinimum({ on: e.target.checked })}
          />
          <label htmlFor={id("minimum")}>Go ahead only with at least</label>
        </div>
        <p id={id("minimum-hint")} className="admin-hint">
          If fewer have booked when the numbers are decided, you get a text and an email and the desk shows the night as
          Short of numbers, to cancel or move it. Guests hear nothing until you act; if you do nothing, the night runs
          as booked.
        </p>
        {minimum.on ? (
          <div className="admin-results-row">
            {splitsByGender(draft.format) ? (
              <>
                {count("women", "Women")}
                {count("men", "Men")}
              </>
            ) : (
              count("total", "People")
            )}
          </div>
        ) : null}
      </fieldset>
      {minimum.on ? (
        <VenueDateTimeField
          id={id("minimum-by")}
          name="Decided at"
          legend="Numbers decided at"
          hint="When the bookings are counted. Default: 48 hours before the start."
          value={minimumByShown(money, draft)}
          onChange={(by) => setMinimum({ by })}
        />
      ) : null}
      <div className="span-2">
        <div className="admin-check">
          <input
            id={id("no-match-promise")}
            type="checkbox"
            checked={money.noMatchPromise}
            aria-describedby={id("no-match-promise-hint")}
            onChange={(e) => onChange({ ...money, noMatchPromise: e.target.checked })}
          />
          <label htmlFor={id("no-match-promise")}>{NO_MATCH_PROMISE}</label>
        </div>
        <p id={id("no-match-promise-hint")} className="admin-hint">
          Shown on the event card and the booking confirmation. When the results are released, each guest who came,
          rated everyone they met and has no match gets the price they paid as credit, with one text.
        </p>
      </div>
    </>
  );
}
