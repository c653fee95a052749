import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import { useLinkButton } from "../../../lib/use-link-button.ts";
import { type ConsentLink, checkLink, confirmEmails } from "../email-consent-api.ts";

export const CONFIRMED = "Thank you. You will get emails about future events at this address.";
export const INVALID_CONSENT_LINK = "This link is not valid";

/**
 * The page the confirmation email's link opens (docs/decisions/039): one button, no sign-in, and
 * nothing on it says whose address it is. Opening it changes nothing (mail scanners open links);
 * only the button records the yes.
 */
export function EmailConsentPanel(props: { link: ConsentLink | null }) {
  const { link } = props;
  const { state, press, result } = useLinkButton(link, checkLink, confirmEmails);

  if (state === "invalid") {
    return (
      <div className="unsubscribe">
        <h1>{INVALID_CONSENT_LINK}</h1>
        <p>Nothing has changed. Use the link in the email exactly as it came.</p>
      </div>
    );
  }
  return (
    <div className="unsubscribe">
      <h1>Emails about future events</h1>
      {state === "done" ? (
        <p className="notice ok" role="status" tabIndex={-1} ref={result}>
          {CONFIRMED}
        </p>
      ) : (
        <>
          <p>
            Confirm that this address should get our emails about future events. Every one of them has an Unsubscribe
            link.
          </p>
          {state === "failed" ? (
            <p className="message error" role="alert" tabIndex={-1} ref={result}>
              That didn't go through. Check your connection and press the button again.
            </p>
          ) : null}
          <button
            type="button"
            className="button primary"
            onClick={() => void press()}
            disabled={state === "checking" || state === "busy"}
            aria-busy={state === "checking" || state === "busy"}
          >
            Yes, email me about future events
          </button>
        </>
      )}
      <p>
        <Link to={paths.privacy}>What we keep, and why</Link>
      </p>
    </div>
  );
}
