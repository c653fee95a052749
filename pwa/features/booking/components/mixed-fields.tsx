import {
  MIXED_GENDERS,
  MIXED_WHY,
  type MixedGender,
  WANTS_TO_MEET,
  type WantsToMeetValue,
} from "../../../../common/format-words.ts";
import { fieldProblem } from "./person-fields.tsx";

/** One question as a row of radios a thumb can hit at 390 px, described by the line on why. */
function Choice<T extends string>(props: {
  id: string;
  legend: string;
  name: string;
  options: readonly { value: T; label: string }[];
  value: T | "";
  onChange: (value: T) => void;
  describedBy: string;
  problem?: string | null;
}) {
  const missing = fieldProblem(props.id, props.problem);
  const describedBy = [missing.inputProps["aria-describedby"], props.describedBy].filter(Boolean).join(" ");
  return (
    <fieldset id={props.id} className="field choice-fieldset" aria-describedby={describedBy}>
      <legend>{props.legend}</legend>
      {missing.message}
      <div className="choice-row">
        {props.options.map((o) => (
          <label key={o.value} className="choice-option">
            <input
              type="radio"
              name={props.name}
              value={o.value}
              checked={props.value === o.value}
              onChange={() => props.onChange(o.value)}
              aria-invalid={missing.inputProps["aria-invalid"]}
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * A Mixed night's two questions (issue 37): **Woman**, **Man** or **Non-binary**, and whom they would
 * like to meet (**Women**, **Men**, **Everyone**), with why and who sees it. The second answer is
 * someone's orientation: it is never kept in the draft, and only the planner reads it.
 */
export function MixedFields(props: {
  idPrefix: string;
  gender: MixedGender | "";
  onGender: (gender: MixedGender) => void;
  wantsToMeet: WantsToMeetValue | "";
  onWantsToMeet: (value: WantsToMeetValue) => void;
  /** What each question still lacks, once Submit found it empty. */
  problems?: { gender?: string | null; wantsToMeet?: string | null };
}) {
  const whyId = `${props.idPrefix}-mixed-why`;
  return (
    <>
      <Choice
        id={`${props.idPrefix}-mixed-gender`}
        legend="Gender"
        name="gender"
        options={MIXED_GENDERS}
        value={props.gender}
        onChange={props.onGender}
        describedBy={whyId}
        problem={props.problems?.gender}
      />
      <Choice
        id={`${props.idPrefix}-wants-to-meet`}
        legend="Would like to meet"
        name="wantsToMeet"
        options={WANTS_TO_MEET}
        value={props.wantsToMeet}
        onChange={props.onWantsToMeet}
        describedBy={whyId}
        problem={props.problems?.wantsToMeet}
      />
      <p id={whyId} className="hint mixed-why">
        {MIXED_WHY}
      </p>
    </>
  );
}
