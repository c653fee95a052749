import { type FormEvent, useState } from "react";
import type { EventFormat } from "../../../../common/formats.ts";
import { ROUNDS_LIMITS as L } from "../../../../common/rounds-settings.ts";
import { type DraftErrors, draftOf, readDraft, type SettingsDraft } from "../console-view.ts";
import type { RoundsSettings, RoundsStatus } from "../rounds-api.ts";

/**
 * Starts from the event's saved settings; later answers (the polls) leave the typing alone. The
 * console keys it by event, so another event starts afresh from its own.
 */
type Props = {
  /** Who meets whom: only Women meet men has a side that stays seated. */
  format?: EventFormat;
  status: RoundsStatus;
  settings: RoundsSettings;
  disabled: boolean;
  busy: boolean;
  /** `suggestMax` fills **Max rounds** in, when the console's warning suggested one and the host went back. */
  onPlan(settings: RoundsSettings, suggestMax: (maxRounds: number) => void): void;
};

function NumberField(props: {
  id: keyof DraftErrors;
  label: string;
  hint?: string;
  value: string;
  min: number;
  max?: number;
  error?: string;
  onChange(value: string): void;
}) {
  const id = `rounds-${props.id}`;
  const described = [props.hint ? `${id}-hint` : "", props.error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={props.min}
        max={props.max}
        step={1}
        value={props.value}
        placeholder={props.id === "maxRounds" ? "No limit" : undefined}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hint ? (
        <p id={`${id}-hint`} className="rounds-hint">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={`${id}-error`} className="rounds-field-error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/** The night's settings and **Plan rounds** (or **Re-plan rounds** once there is a plan). */
export function SettingsForm({ format, status, settings, disabled, busy, onPlan }: Props) {
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(settings));
  const [errors, setErrors] = useState<DraftErrors>({});
  const set = (field: keyof SettingsDraft) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const read = readDraft(draft);
    if (!read.ok) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    onPlan(read.settings, (maxRounds) => setDraft((d) => ({ ...d, maxRounds: String(maxRounds) })));
  };
  const replan = status !== "none";
  return (
    <section className="rounds-card" aria-labelledby="rounds-settings-title">
      <h2 id="rounds-settings-title">Settings</h2>
      <form className="rounds-settings" onSubmit={submit} noValidate>
        <NumberField
          id="roundMinutes"
          label="Round minutes"
          value={draft.roundMinutes}
          min={L.roundMinutes.min}
          max={L.roundMinutes.max}
          error={errors.roundMinutes}
          onChange={set("roundMinutes")}
        />
        <NumberField
          id="breakMinutes"
          label="Break minutes"
          hint="The changeover between rounds."
          value={draft.breakMinutes}
          min={L.breakMinutes.min}
          max={L.breakMinutes.max}
          error={errors.breakMinutes}
          onChange={set("breakMinutes")}
        />
        <NumberField
          id="maxRounds"
          label="Max rounds"
          hint="Empty: everyone meets everyone."
          value={draft.maxRounds}
          min={L.maxRounds.min}
          max={L.maxRounds.max}
          error={errors.maxRounds}
          onChange={set("maxRounds")}
        />
        {format !== undefined && format !== "women_men" ? null : (
          <fieldset className="rounds-seated-choice">
            <legend>Who stays seated</legend>
            {(["female", "male"] as const).map((side) => (
              <label key={side}>
                <input
                  type="radio"
                  name="rounds-seated"
                  value={side}
                  checked={draft.seated === side}
                  onChange={() => setDraft((d) => ({ ...d, seated: side }))}
                />
                {side === "female" ? "Women" : "Men"}
              </label>
            ))}
          </fieldset>
        )}
        {replan ? (
          <p className="rounds-hint rounds-settings-note">
            Re-planning changes only the rounds not started yet, from the people present now.
          </p>
        ) : null}
        <button type="submit" className="button primary" disabled={disabled || busy} aria-busy={busy || undefined}>
          {replan ? "Re-plan rounds" : "Plan rounds"}
        </button>
      </form>
    </section>
  );
}
