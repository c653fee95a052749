import { useState } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import { useLinkButton } from "../../../lib/use-link-button.ts";
import { checkLink, type UnsubscribeLink, unsubscribe } from "../unsubscribe-api.ts";

/** What the button did: emails only (issue 46 item 12); texts are the number's own choice. */
export const UNSUBSCRIBED = "You will get no more emails about future events.";
export const INVALID_LINK = "This link is not valid";

/**
 * The page an email's **Unsubscribe** link opens: one button, no sign-in, and nothing on it says whose
 * address it is. Opening the page changes nothing (mail scanners open links); only the button does.
 */
export function UnsubscribePanel(props: { link: UnsubscribeLink | null }) {
  const { link } = props;
  const [textsStillOn, setTextsStillOn] = useState(false);
  const { state, press, result } = useLinkButton(link, checkLink, async (l) => {
    const outcome = await unsubscribe(l);
    if (outcome.kind === "done") setTextsStillOn(outcome.textsStillOn);
    return outcome.kind;
  });

  if (state === "invalid") {
    return (
      <div className="unsubscribe">
        <h1>{INVALID_LINK}</h1>
        <p>
          Nothing has changed. Use the Unsubscribe link in the email exactly as it came, or reply STOP to one of our
          texts. Signed in on <Link to={paths.me}>My nights</Link>, you can also untick the boxes for messages about
          future events.
        </p>
      </div>
    );
  }
  return (
    <div className="unsubscribe">
      <h1>Unsubscribe</h1>
      {state === "done" ? (
        <div className="notice ok" role="status">
          <p tabIndex={-1} ref={result}>
            You are unsubscribed. {UNSUBSCRIBED}
          </p>
          {textsStillOn ? (
            <p>
              Texts about future events still go to your mobile. Sign in on <Link to={paths.me}>My nights</Link> to turn
              those off, or reply STOP to one of them.
            </p>
          ) : null}
        </div>
      ) : (
        <>
          <p>Stop the emails about future events sent to this address. Your tickets and reminders still come.</p>
          {state === "failed" ? (
            <p className="message error" role="alert" tabIndex={-1} ref={result}>
              That didn't go through. Check your connection and press Unsubscribe again.
            </p>
          ) : null}
          <button
            type="button"
            className="button primary"
            onClick={() => void press()}
            disabled={state === "checking" || state === "busy"}
            aria-busy={state === "checking" || state === "busy"}
          >
            Unsubscribe
          </button>
        </>
      )}
      <p>
        <Link to={paths.privacy}>What we keep, and why</Link>
      </p>
    </div>
  );
}
