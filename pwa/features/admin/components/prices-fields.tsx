import { EVENT_LIMITS as L } from "../../../../common/event-limits.ts";
import type { PricesDraft } from "../prices-draft.ts";

/**
 * The **Prices** group (a price per gender, the early bird) and each gender's own age range, all
 * optional: left empty, the ticket price and the From/To ages above apply
 * (docs/decisions/023-prices-and-ages.md).
 */
export function PricesFields(props: { idPrefix: string; value: PricesDraft; onChange: (next: PricesDraft) => void }) {
  const id = (name: string) => `${props.idPrefix}-${name}`;
  const input = (key: keyof PricesDraft, kind: "money" | "age") => ({
    id: id(key),
    type: "number",
    min: kind === "money" ? (key === "earlyBird" ? 0.01 : L.price.min) : L.age.min,
    max: kind === "money" ? L.price.max : L.age.max,
    step: kind === "money" ? L.price.step : 1,
    value: props.value[key],
    onChange: (e: { target: { value: string } }) => props.onChange({ ...props.value, [key]: e.target.value }),
  });
  return (
    <fieldset className="span-2 admin-prices">
      <legend>Prices</legend>
      <p className="admin-hint">Optional. Left empty, everyone pays the ticket price.</p>
      <div className="admin-prices-grid">
        <div className="field">
          <label htmlFor={id("priceMale")}>Price for men (AUD)</label>
          <input {...input("priceMale", "money")} />
        </div>
        <div className="field">
          <label htmlFor={id("priceFemale")}>Price for women (AUD)</label>
          <input {...input("priceFemale", "money")} />
        </div>
        <div className="field">
          <label htmlFor={id("earlyBird")}>Early-bird discount (AUD)</label>
          <input {...input("earlyBird", "money")} />
        </div>
        <div className="field">
          <label htmlFor={id("earlyBirdUntil")}>Early bird until (venue time)</label>
          <input
            id={id("earlyBirdUntil")}
            type="datetime-local"
            value={props.value.earlyBirdUntil}
            onChange={(e) => props.onChange({ ...props.value, earlyBirdUntil: e.target.value })}
          />
        </div>
      </div>
      <p className="admin-hint">Ages per gender, optional. Left empty, From age and To age apply.</p>
      <div className="admin-prices-grid">
        <div className="field">
          <label htmlFor={id("fromAgeMale")}>From age (men)</label>
          <input {...input("fromAgeMale", "age")} />
        </div>
        <div className="field">
          <label htmlFor={id("toAgeMale")}>To age (men)</label>
          <input {...input("toAgeMale", "age")} />
        </div>
        <div className="field">
          <label htmlFor={id("fromAgeFemale")}>From age (women)</label>
          <input {...input("fromAgeFemale", "age")} />
        </div>
        <div className="field">
          <label htmlFor={id("toAgeFemale")}>To age (women)</label>
          <input {...input("toAgeFemale", "age")} />
        </div>
      </div>
    </fieldset>
  );
}
