import { MARKETING_LABELS } from "../../common/consent-labels.ts";

/**
 * **Text me about future events** and **Email me about future events** (issue 36): unticked unless the
 * person ticked them (the Spam Act's express consent), never needed to book. `email` absent: the text
 * box only (the waitlist asks for no email). Named as the details form posts them (`1` when ticked).
 */
export function MarketingBoxes(props: {
  idPrefix: string;
  sms: boolean;
  onSms: (checked: boolean) => void;
  email?: boolean;
  onEmail?: (checked: boolean) => void;
  /** Shown under the boxes; the forms say it is never needed, /me says how to stop. */
  hint?: string;
  /** The legend for screen readers only, where a heading above already says it (/me). */
  legendHidden?: boolean;
}) {
  const hintId = `${props.idPrefix}-marketing-hint`;
  const hint = props.hint ?? "Only news of future nights. You don't need this to book, and you can stop any time.";
  return (
    <fieldset className="marketing-boxes" aria-describedby={hintId}>
      <legend className={props.legendHidden ? "sr-only" : undefined}>Messages about future events</legend>
      <label className="check" htmlFor={`${props.idPrefix}-marketing-sms`}>
        <input
          id={`${props.idPrefix}-marketing-sms`}
          name="marketingSms"
          type="checkbox"
          value="1"
          checked={props.sms}
          onChange={(e) => props.onSms(e.target.checked)}
        />
        <span>{MARKETING_LABELS.sms}</span>
      </label>
      {props.onEmail ? (
        <label className="check" htmlFor={`${props.idPrefix}-marketing-email`}>
          <input
            id={`${props.idPrefix}-marketing-email`}
            name="marketingEmail"
            type="checkbox"
            value="1"
            checked={props.email ?? false}
            onChange={(e) => props.onEmail?.(e.target.checked)}
          />
          <span>{MARKETING_LABELS.email}</span>
        </label>
      ) : null}
      <p id={hintId} className="hint">
        {hint}
      </p>
    </fieldset>
  );
}
