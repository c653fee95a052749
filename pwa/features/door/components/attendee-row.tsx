import { useEffect, useRef, useState } from "react";
import { genderWord } from "../../../../common/format-words.ts";
import { imageUrl } from "../../../lib/api.ts";
import { arrivalTime, type DoorAttendee } from "../roster-view.ts";

type Props = {
  attendee: DoorAttendee;
  zone: string;
  /** Undo is offered for a minute after this phone checked them in. */
  canUndo: boolean;
  /** Before the doors open, Check in is shown but disabled (pwa/features/door/components/doors-open-notice.tsx). */
  doorsClosed?: boolean;
  /** Keeps ids unique when the same attendee also shows as the scanned ticket. */
  idPrefix: string;
  /** Put the keyboard on the row's button as soon as it shows (a scanned ticket). */
  autoFocus?: boolean;
  onCheckIn(userID: number): void;
  onUndo(userID: number): void;
};

/** One attendee: face, name, gender, phone ending, and one big action. */
export function AttendeeRow({
  attendee: a,
  zone,
  canUndo,
  doorsClosed,
  idPrefix,
  autoFocus,
  onCheckIn,
  onUndo,
}: Props) {
  const nameId = `${idPrefix}-name-${a.userID}`;
  const arrived = a.checkedInAt !== null;
  const action = useRef<HTMLButtonElement>(null);
  // After Check in the button becomes Undo (and back): keep the keyboard on the row's action.
  const acted = useRef(Boolean(autoFocus));
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the action changes, on purpose
  useEffect(() => {
    // The next button may take a render or two to appear (the tap is stored first): wait for it.
    if (acted.current && action.current && document.activeElement !== action.current) {
      action.current.focus();
      acted.current = false;
    }
  }, [arrived, canUndo]);

  return (
    <li className={`door-row${arrived ? " is-arrived" : ""}`}>
      <Thumb name={a.thumbName} />
      <div className="door-row-text">
        <span className="door-name" id={nameId}>
          {a.name}
        </span>
        <span className="door-meta">
          {/* Nothing at One group, which asks no gender (issue 37), nor in a host's copy at Mixed (issue 46). */}
          {genderWord(a.gender ?? "") ? `${genderWord(a.gender ?? "")} · ` : null}
          {/* Kept rosters from before ages were sent have none. */}
          {a.age === null || a.age === undefined ? null : `${a.age} · `}
          <span className="sr-only">phone ending </span>…{a.phoneLast4}
        </span>
        {arrived ? (
          <span className="door-arrived-at">
            Arrived {arrivalTime(a.checkedInAt as string, zone)}
            {a.waiting ? " · waiting to sync" : ""}
          </span>
        ) : null}
      </div>
      {arrived ? (
        canUndo ? (
          <button
            ref={action}
            type="button"
            className="button door-action"
            aria-describedby={nameId}
            onClick={() => {
              acted.current = true;
              onUndo(a.userID);
            }}
          >
            Undo
          </button>
        ) : (
          <span className="door-tick" aria-hidden="true">
            ✓
          </span>
        )
      ) : (
        <button
          ref={action}
          type="button"
          className="button primary door-action"
          aria-describedby={doorsClosed ? `${nameId} door-doors-closed` : nameId}
          disabled={doorsClosed}
          onClick={() => {
            acted.current = true;
            onCheckIn(a.userID);
          }}
        >
          Check in
        </button>
      )}
    </li>
  );
}

function Thumb({ name }: { name: string }) {
  const [broken, setBroken] = useState(false);
  if (broken) return <span className="door-thumb placeholder" aria-hidden="true" />;
  return (
    <img
      className="door-thumb"
      src={imageUrl(name)}
      alt=""
      width={56}
      height={56}
      loading="lazy"
      onError={() => setBroken(true)}
    />
  );
}
