import { useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import { checkLink, type UnsubscribeLink, unsubscribe } from "../unsubscribe-api.ts";

export const UNSUBSCRIBED = "You are unsubscribed. You will get no more messages about future events.";
export const INVALID_LINK = "This link is not valid";

type State = "checking" | "ready" | "busy" | "done" | "invalid" | "failed";

/**
 * The page an email's **Unsubscribe** link opens: one button, no sign-in, and nothing on it says whose
 * address it is. Opening the page changes nothing (mail scanners open links); only the button does.
 */
export function UnsubscribePanel(props: { link: UnsubscribeLink | null }) {
  const { link } = props;
  const [state, setState] = useState<State>(link ? "checking" : "invalid");
  const result = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (!link) return;
    let current = true;
    void checkLink(link).then((check) => {
      if (!current) return;
      // Offline or a server hiccup: the button is offered anyway, and its answer decides.
      setState(check === "invalid" ? "invalid" : "ready");
    });
    return () => {
      current = false;
    };
  }, [link]);

  useEffect(() => {
    if (state === "done" || state === "failed") result.current?.focus();
  }, [state]);

  const press = async () => {
    if (!link) return;
    setState("busy");
    const outcome = await unsubscribe(link);
    setState(outcome === "done" ? "done" : outcome === "invalid" ? "invalid" : "failed");
  };

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
        <p className="notice ok" role="status" tabIndex={-1} ref={result}>
          {UNSUBSCRIBED}
        </p>
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
