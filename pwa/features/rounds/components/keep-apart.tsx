import { type FormEvent, useState } from "react";
import { genderWord } from "../../../../common/format-words.ts";
import { ErrorNotice } from "../../../lib/error-notice.tsx";
import type { KeepApartGuest } from "../rounds-api.ts";
import { useKeepApart } from "../use-keep-apart.ts";

/**
 * **Keep apart** (docs/decisions/030-nobody-across-the-table-twice.md): the organiser picks two guests
 * of the event (exes, siblings, colleagues) never to be seated together, and can undo it. Marking a
 * pair the plan seats together re-plans the rounds not yet started at once. Only on the organiser's
 * console: a host never sees who is kept apart, nor why.
 */
export function KeepApart({
  eventID,
  disabled,
  onPlanChanged,
}: {
  eventID: number;
  /** Offline, or the night is over: the list shows, the controls do not work. */
  disabled: boolean;
  onPlanChanged(): unknown;
}) {
  const { state, busy, problem, reload, change } = useKeepApart(eventID, onPlanChanged);
  const [first, setFirst] = useState("");
  const [second, setSecond] = useState("");
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!first || !second) {
      setError("Choose two guests.");
      return;
    }
    if (first === second) {
      setError("Choose two different guests.");
      return;
    }
    setError(null);
    if (await change([Number(first), Number(second)], true)) {
      setFirst("");
      setSecond("");
    }
  };

  return (
    <section className="rounds-card rounds-keep-apart" aria-labelledby="rounds-keep-apart-title">
      <h2 id="rounds-keep-apart-title">Keep apart</h2>
      <p className="rounds-hint">Two guests marked here are never seated together, in any plan.</p>
      {state.status === "loading" ? (
        <p role="status" className="admin-loading">
          Loading...
        </p>
      ) : null}
      {state.status === "error" ? <ErrorNotice message={state.message} onRetry={reload} /> : null}
      {state.status === "ready" ? (
        <>
          {state.data.pairs.length === 0 ? (
            <p className="empty">Nobody is kept apart.</p>
          ) : (
            <ul className="rounds-keep-apart-pairs">
              {state.data.pairs.map(({ userIDs, names }) => (
                <li key={userIDs.join("-")}>
                  <span>
                    {names[0]} and {names[1]}
                  </span>
                  <button
                    type="button"
                    className="button"
                    aria-label={`Undo: let ${names[0]} and ${names[1]} be seated together`}
                    disabled={disabled || busy}
                    onClick={() => void change(userIDs, false)}
                  >
                    Undo
                  </button>
                </li>
              ))}
            </ul>
          )}
          {state.data.guests.length < 2 ? (
            <p className="empty">Guests with a paid seat can be kept apart once there are two.</p>
          ) : (
            <form className="rounds-keep-apart-form" onSubmit={(e) => void submit(e)} noValidate>
              <GuestSelect
                id="keep-apart-first"
                label="Guest"
                value={first}
                guests={state.data.guests}
                onChange={(value) => {
                  setFirst(value);
                  if (value === second) setSecond("");
                }}
              />
              <GuestSelect
                id="keep-apart-second"
                label="Keep apart from"
                value={second}
                guests={state.data.guests.filter((g) => String(g.userID) !== first)}
                onChange={setSecond}
              />
              {error ? (
                <p className="rounds-field-error" role="alert">
                  {error}
                </p>
              ) : null}
              <button
                type="submit"
                className="button primary"
                disabled={disabled || busy}
                aria-busy={busy || undefined}
              >
                {busy ? "Saving..." : "Keep apart"}
              </button>
            </form>
          )}
        </>
      ) : null}
      {problem ? (
        <p className="notice error" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}

function GuestSelect(props: {
  id: string;
  label: string;
  value: string;
  guests: KeepApartGuest[];
  onChange(value: string): void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">Choose a guest</option>
        {props.guests.map((g) => (
          <option key={g.userID} value={g.userID}>
            {genderWord(g.gender) ? `${g.username} (${genderWord(g.gender).toLowerCase()})` : g.username}
          </option>
        ))}
      </select>
    </div>
  );
}
