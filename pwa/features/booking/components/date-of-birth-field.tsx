import { fieldProblem } from "./person-fields.tsx";

/**
 * **Date of birth**: the server checks the age on the event's date against the event's range
 * (docs/decisions/023-prices-and-ages.md). A native date input: the phone's own picker, keyboard
 * entry on a desktop, and the value always `YYYY-MM-DD`.
 */
export function DateOfBirthField(props: {
  idPrefix: string;
  value: string;
  onChange: (date: string) => void;
  problem?: string | null;
}) {
  const id = `${props.idPrefix}-date-of-birth`;
  const missing = fieldProblem(id, props.problem);
  return (
    <div className="field">
      <label htmlFor={id}>Date of birth</label>
      <input
        id={id}
        name="dateOfBirth"
        type="date"
        autoComplete="bday"
        min="1900-01-01"
        max={new Date().toISOString().slice(0, 10)}
        required
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        {...missing.inputProps}
      />
      {missing.message}
    </div>
  );
}
