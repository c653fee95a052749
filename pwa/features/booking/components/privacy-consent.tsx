import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";

/**
 * Who sees what, said before anything is saved, with a box to tick. What it says follows the server:
 * partners get the name and thumbnail (get-participants), the report shows a phone only to people
 * that person liked (get-feedback's `mutual` and `likedme`), and docs/decisions/012 says how long.
 */
export function PrivacyConsent(props: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div className="privacy-consent">
      <p id="booking-privacy-note" className="privacy-note">
        Your photo and name are shown to the people you meet that night. Your mobile number is shown only to people you
        Like, so a mutual match can get in touch. <Link to={paths.privacy}>What we keep, and for how long</Link>
      </p>
      <label className="check" htmlFor="booking-consent">
        <input
          id="booking-consent"
          name="consent"
          type="checkbox"
          required
          aria-describedby="booking-privacy-note"
          checked={props.checked}
          onChange={(e) => props.onChange(e.target.checked)}
        />
        <span>I have read who sees my details</span>
      </label>
    </div>
  );
}
