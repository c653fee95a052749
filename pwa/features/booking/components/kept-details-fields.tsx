import { useState } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";

/**
 * **Use my saved photo** or a new one, offered when the verified number kept a photo
 * (docs/decisions/029-kept-details.md), with the photo itself to see. Radio buttons: one choice,
 * arrow keys move between them.
 */
export function SavedPhotoChoice(props: { phone: string; useSaved: boolean; onChange: (useSaved: boolean) => void }) {
  const [shown, setShown] = useState(true);
  return (
    <fieldset className="field saved-photo-choice">
      <legend>Your photo</legend>
      <label className="check" htmlFor="booking-saved-photo">
        <input
          id="booking-saved-photo"
          type="radio"
          name="photo-choice"
          checked={props.useSaved}
          onChange={() => props.onChange(true)}
        />
        <span>Use my saved photo</span>
      </label>
      {shown ? (
        <img
          className="saved-photo"
          src={`/api/kept-photo?${new URLSearchParams({ phone: props.phone })}`}
          alt="You, as saved for next time"
          width={96}
          height={96}
          // Gone since the form asked (deleted on another phone): the choice stays, the server decides.
          onError={() => setShown(false)}
        />
      ) : null}
      <label className="check" htmlFor="booking-new-photo">
        <input
          id="booking-new-photo"
          type="radio"
          name="photo-choice"
          checked={!props.useSaved}
          onChange={() => props.onChange(false)}
        />
        <span>Choose a new photo</span>
      </label>
    </fieldset>
  );
}

/** **Keep my details for next time**: unticked unless the guest ticks it. */
export function KeepDetailsBox(props: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div className="keep-details">
      <label className="check" htmlFor="booking-keep-details">
        <input
          id="booking-keep-details"
          name="keepDetails"
          type="checkbox"
          aria-describedby="booking-keep-details-note"
          checked={props.checked}
          onChange={(e) => props.onChange(e.target.checked)}
        />
        <span>Keep my details for next time</span>
      </label>
      <small id="booking-keep-details-note" className="hint">
        Your name, email, date of birth, gender and photo are kept with this mobile number, so your next booking is
        filled in. They stay until you delete them on <Link to={paths.me}>My nights</Link>, or 18 months after your last
        booking.
      </small>
    </div>
  );
}
