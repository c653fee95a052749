import { formatPhone } from "../phone.ts";
import { GENDER_LABELS, type Gender } from "../types.ts";

/**
 * The fields the details form and the waitlist form both ask for. `idPrefix` keeps each form's ids
 * apart ("booking", "waitlist"), so the labels stay tied to their own inputs.
 */
export function VerifiedPhoneField(props: { idPrefix: string; phone: string }) {
  const id = `${props.idPrefix}-verified-phone`;
  return (
    <div className="field">
      <label htmlFor={id}>Verified mobile</label>
      <input id={id} name="phone" readOnly value={formatPhone(props.phone)} />
    </div>
  );
}

/**
 * What a required field still lacks, beside it: `aria-invalid` and `aria-describedby` for its input,
 * and the short message they point to; nothing while the field is filled.
 */
export function fieldProblem(id: string, problem: string | null | undefined) {
  const problemId = `${id}-missing`;
  const inputProps: { "aria-invalid"?: true; "aria-describedby"?: string } = problem
    ? { "aria-invalid": true, "aria-describedby": problemId }
    : {};
  return {
    inputProps,
    message: problem ? (
      <p id={problemId} className="message error field-problem">
        {problem}
      </p>
    ) : null,
  };
}

export function NameField(props: {
  idPrefix: string;
  value: string;
  onChange: (name: string) => void;
  problem?: string | null;
}) {
  const id = `${props.idPrefix}-name`;
  const missing = fieldProblem(id, props.problem);
  return (
    <div className="field">
      <label htmlFor={id}>Name</label>
      <input
        id={id}
        name="name"
        autoComplete="name"
        maxLength={100}
        required
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        {...missing.inputProps}
      />
      {missing.message}
    </div>
  );
}

export function GenderField(props: {
  idPrefix: string;
  value: Gender | "";
  onChange: (gender: Gender | "") => void;
  /** The gender of the seat a waitlist offer keeps: shown, sent, but not changeable. */
  fixed?: Gender;
  problem?: string | null;
}) {
  const id = `${props.idPrefix}-gender`;
  const hintId = `${id}-hint`;
  const missing = fieldProblem(id, props.problem);
  return (
    <div className="field">
      <label htmlFor={id}>Gender</label>
      {props.fixed ? (
        <>
          <input id={id} name="gender" readOnly value={GENDER_LABELS[props.fixed]} aria-describedby={hintId} />
          <small id={hintId} className="hint">
            The seat kept for you is for this gender.
          </small>
        </>
      ) : (
        <select
          id={id}
          name="gender"
          required
          value={props.value}
          onChange={(e) => props.onChange(e.target.value as Gender | "")}
          {...missing.inputProps}
        >
          <option value="">Choose…</option>
          <option value="male">{GENDER_LABELS.male}</option>
          <option value="female">{GENDER_LABELS.female}</option>
        </select>
      )}
      {props.fixed ? null : missing.message}
    </div>
  );
}
