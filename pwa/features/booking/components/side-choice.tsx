import { useEffect, useState } from "react";
import { type EventView, getEvent, type SeatsByGender } from "../../events/index.ts";
import { genderFullMessage } from "../seat-messages.ts";
import type { Gender } from "../types.ts";

const SIDES: { gender: Gender; label: string }[] = [
  { gender: "female", label: "Woman" },
  { gender: "male", label: "Man" },
];

const seatLine = (n: number) => (n <= 0 ? "Sold out" : `${n} ${n === 1 ? "seat" : "seats"} left`);

/**
 * The first step at a balanced event: Woman or Man, before the phone, so a full side is known at
 * once and its waitlist offered, instead of after the code, the details and the photo.
 * `onChoose(gender, "waitlist")` when the side is full and the person joins its waitlist.
 */
export function SideChoice(props: {
  event: EventView;
  initial?: Gender;
  onChoose: (gender: Gender, intent: "book" | "waitlist") => void;
}) {
  const seats = useFreshSeats(props.event);
  const [chosen, setChosen] = useState<Gender | null>(null);
  const full = (gender: Gender) => (seats ? seats[gender] <= 0 : false);

  const choose = (gender: Gender) => {
    if (full(gender)) setChosen(gender);
    else props.onChoose(gender, "book");
  };
  // A side found full says so until another is chosen; fresher counts may free it again.
  const fullChosen = chosen && full(chosen) ? chosen : null;

  return (
    <div className="side-choice">
      <p>This event keeps the numbers of women and men even.</p>
      <fieldset className="side-fieldset">
        <legend>Which seat are you booking?</legend>
        <div className="side-buttons">
          {SIDES.map(({ gender, label }) => (
            <div key={gender} className="side-option">
              <button
                type="button"
                className={`button side-button${props.initial === gender || fullChosen === gender ? " chosen" : ""}`}
                aria-describedby={seats ? `side-seats-${gender}` : undefined}
                onClick={() => choose(gender)}
              >
                {label}
              </button>
              {seats ? (
                <small id={`side-seats-${gender}`} className="hint">
                  {seatLine(seats[gender])}
                </small>
              ) : null}
            </div>
          ))}
        </div>
      </fieldset>
      <div className="side-full" role="alert">
        {fullChosen ? (
          <>
            <p className="message error">{genderFullMessage(fullChosen)}</p>
            <button type="button" className="button primary" onClick={() => props.onChoose(fullChosen, "waitlist")}>
              Join waitlist
            </button>
          </>
        ) : null}
      </div>
    </div>
  );
}

/** The seats per gender as the card showed them, then as the server says now. */
function useFreshSeats(event: EventView): SeatsByGender {
  const [seats, setSeats] = useState<SeatsByGender>(event.SeatsLeft);
  useEffect(() => {
    let live = true;
    getEvent(event.id)
      .then((reply) => {
        if (live && reply.ok && reply.data?.SeatsLeft) setSeats(reply.data.SeatsLeft);
      })
      .catch(() => {
        // Offline: the card's counts stand, and the server checks again when the seat is held.
      });
    return () => {
      live = false;
    };
  }, [event.id]);
  return seats;
}
