import {
  MIXED_GENDERS,
  MIXED_WHY,
  type MixedGender,
  WANTS_TO_MEET,
  type WantsToMeetValue,
} from "../../../../common/formats.ts";

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
}) {
  const whyId = `${props.idPrefix}-mixed-why`;
  return (
    <>
      <fieldset className="field choice-fieldset" aria-describedby={whyId}>
        <legend>Gender</legend>
        <div className="choice-row">
          {MIXED_GENDERS.map((g) => (
            <label key={g.value} className="choice-option">
              <input
                type="radio"
                name="gender"
                value={g.value}
                checked={props.gender === g.value}
                onChange={() => props.onGender(g.value)}
              />
              {g.label}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="field choice-fieldset" aria-describedby={whyId}>
        <legend>Would like to meet</legend>
        <div className="choice-row">
          {WANTS_TO_MEET.map((w) => (
            <label key={w.value} className="choice-option">
              <input
                type="radio"
                name="wantsToMeet"
                value={w.value}
                checked={props.wantsToMeet === w.value}
                onChange={() => props.onWantsToMeet(w.value)}
              />
              {w.label}
            </label>
          ))}
        </div>
      </fieldset>
      <p id={whyId} className="hint mixed-why">
        {MIXED_WHY}
      </p>
    </>
  );
}
