import type { ReactNode } from "react";
import { EVENT_LIMITS as L } from "../../../../common/event-limits.ts";
import { EVENT_TEXT_FIELDS } from "../../../../common/event-wire.ts";
import { FORMAT_HINTS } from "../../../../common/format-words.ts";
import { EVENT_FORMATS, type EventFormat, FORMAT_LABELS, splitsByGender } from "../../../../common/formats.ts";
import type { EventDraft } from "../event-draft.ts";
import { BalancedSeatsFields } from "./balanced-seats-fields.tsx";
import { MoneyRulesFields } from "./money-rules-fields.tsx";
import { PricesFields } from "./prices-fields.tsx";
import { TimeFields, ZoneField } from "./time-fields.tsx";

type Props = {
  /** Keeps the Add and Edit forms' ids apart when both are in the page. */
  idPrefix: string;
  draft: EventDraft;
  onChange<K extends keyof EventDraft>(key: K, value: EventDraft[K]): void;
  /** The earliest date the picker offers, on the venue's clock. */
  minDate: string;
  /** A line under the price (the Edit form says paid bookings keep theirs). */
  priceHint?: string;
  /** The picture field, which differs: a required file on Add, the current picture and an optional file on Edit. */
  picture: ReactNode;
};

/** The ids and the number inputs of one form's fields. */
function helpers({ idPrefix, draft, onChange }: Props) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const number = (key: "seats" | "price" | "duration" | "fromAge" | "toAge" | "cancelHours" | "cancelPercent") => ({
    type: "number",
    required: true,
    value: draft[key],
    onChange: (e: { target: { value: string } }) => onChange(key, e.target.value),
  });
  return { id, number };
}

/** An event's fields, in one order for Add and Edit, with the limits the server checks (common/event-limits.ts). */
export function EventFields(props: Props) {
  return (
    <>
      <WhenAndWhereFields {...props} />
      <SeatsAndPriceFields {...props} />
      <AgesAndRefundFields {...props} />
      <MoneyRulesFields
        idPrefix={props.idPrefix}
        draft={props.draft}
        onChange={(money) => props.onChange("money", money)}
      />
      <PricesFields
        idPrefix={props.idPrefix}
        value={props.draft.prices}
        onChange={(prices) => props.onChange("prices", prices)}
      />
      {props.picture}
    </>
  );
}

/** The name, the venue's zone, the date and time, the address and the venue notes. */
function WhenAndWhereFields(props: Props) {
  const { idPrefix, draft, onChange, minDate } = props;
  const { id } = helpers(props);
  return (
    <>
      <div className="field span-2">
        <label htmlFor={id("name")}>Event name</label>
        <input
          id={id("name")}
          required
          maxLength={L.name.max}
          value={draft.name}
          onChange={(e) => onChange("name", e.target.value)}
        />
      </div>
      <ZoneField id={id("zone")} value={draft.zone} onChange={(zone) => onChange("zone", zone)} />
      <div className="field">
        <label htmlFor={id("date")}>Date</label>
        <input
          id={id("date")}
          type="date"
          required
          min={minDate}
          value={draft.date}
          onChange={(e) => onChange("date", e.target.value)}
        />
      </div>
      <TimeFields
        idPrefix={idPrefix}
        hour={draft.hour}
        minute={draft.minute}
        onHour={(h) => onChange("hour", h)}
        onMinute={(m) => onChange("minute", m)}
      />
      <div className="field span-2">
        <label htmlFor={id("address")}>Address</label>
        <input
          id={id("address")}
          required
          maxLength={L.address.max}
          autoComplete="off"
          value={draft.address}
          onChange={(e) => onChange("address", e.target.value)}
        />
      </div>
      <div className="field span-2">
        <label htmlFor={id("venue-notes")}>Venue notes</label>
        <input
          id={id("venue-notes")}
          maxLength={EVENT_TEXT_FIELDS.venueNotes.max}
          autoComplete="off"
          aria-describedby={id("venue-notes-hint")}
          value={draft.venueNotes}
          onChange={(e) => onChange("venueNotes", e.target.value)}
        />
        <small id={id("venue-notes-hint")} className="admin-hint">
          At most {EVENT_TEXT_FIELDS.venueNotes.max} characters
        </small>
      </div>
    </>
  );
}

/** The seats, the format (and the seats by gender it may ask for), the price and the duration. */
function SeatsAndPriceFields(props: Props) {
  const { idPrefix, draft, onChange, priceHint } = props;
  const { id, number } = helpers(props);
  return (
    <>
      <div className="field">
        <label htmlFor={id("seats")}>Total seats</label>
        <input id={id("seats")} min={L.totalSeats.min} max={L.totalSeats.max} step={1} {...number("seats")} />
      </div>
      <div className="field">
        <label htmlFor={id("format")}>Format</label>
        <select
          id={id("format")}
          value={draft.format}
          aria-describedby={id("format-hint")}
          onChange={(e) => onChange("format", e.target.value as EventFormat)}
        >
          {EVENT_FORMATS.map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
        <small id={id("format-hint")} className="admin-hint">
          {FORMAT_HINTS[draft.format]} Fixed once someone books.
        </small>
      </div>
      {splitsByGender(draft.format) ? (
        <BalancedSeatsFields
          idPrefix={idPrefix}
          value={draft.seatPlan}
          onChange={(plan) => onChange("seatPlan", plan)}
        />
      ) : null}
      <div className="field">
        <label htmlFor={id("amount")}>Ticket price (AUD)</label>
        <input
          id={id("amount")}
          min={L.price.min}
          max={L.price.max}
          step={L.price.step}
          aria-describedby={priceHint ? id("amount-hint") : undefined}
          {...number("price")}
        />
        {priceHint ? (
          <p id={id("amount-hint")} className="admin-hint">
            {priceHint}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={id("duration")}>Duration (hours)</label>
        <input
          id={id("duration")}
          min={L.durationHours.min}
          max={L.durationHours.max}
          step={L.durationHours.step}
          {...number("duration")}
        />
      </div>
    </>
  );
}

/** The ages, the cancellation policy and whether Friend is offered. */
function AgesAndRefundFields(props: Props) {
  const { draft, onChange } = props;
  const { id, number } = helpers(props);
  return (
    <>
      <div className="field">
        <label htmlFor={id("from-age")}>From age</label>
        <input id={id("from-age")} min={L.age.min} max={L.age.max} step={1} {...number("fromAge")} />
      </div>
      <div className="field">
        <label htmlFor={id("to-age")}>To age</label>
        <input id={id("to-age")} min={L.age.min} max={L.age.max} step={1} {...number("toAge")} />
      </div>
      <div className="field">
        <label htmlFor={id("cancel-hours")}>Full refund until (hours before the start)</label>
        <input
          id={id("cancel-hours")}
          min={L.cancelFullRefundHours.min}
          max={L.cancelFullRefundHours.max}
          step={1}
          {...number("cancelHours")}
        />
      </div>
      <div className="field">
        <label htmlFor={id("cancel-percent")}>Then refund (%), 0 for none</label>
        <input
          id={id("cancel-percent")}
          min={L.cancelLaterPercent.min}
          max={L.cancelLaterPercent.max}
          step={1}
          {...number("cancelPercent")}
        />
      </div>
      <div className="span-2">
        <div className="admin-check">
          <input
            id={id("friend")}
            type="checkbox"
            checked={draft.offersFriend}
            aria-describedby={id("friend-hint")}
            onChange={(e) => onChange("offersFriend", e.target.checked)}
          />
          <label htmlFor={id("friend")}>Offer Friend as a third choice</label>
        </div>
        <p id={id("friend-hint")} className="admin-hint">
          Guests choose Date, Friend or No for each person they met, instead of Like or Dislike. A Date and a Friend, or
          two Friends, make a friend match. Fixed once the night starts.
        </p>
      </div>
    </>
  );
}
