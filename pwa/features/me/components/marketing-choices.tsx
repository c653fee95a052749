import { type FormEvent, useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import { MarketingBoxes } from "../../../lib/marketing-boxes.tsx";
import { getMyConsent, type MyConsent, saveMyConsent } from "../me-api.ts";

/**
 * **Messages about future events** on /me (issue 36): the boxes as this number's newest choices left
 * them, and a save that records only what changed. The email box is for the newest email address
 * the number booked with; with none on file there is nothing to tick. Ticked, it stays `pending`
 * until the address confirms from the email it is sent (docs/decisions/039), and says so.
 */
export function MarketingChoices(props: { onSignedOut: () => void }) {
  const [stored, setStored] = useState<MyConsent | null>(null);
  const [failed, setFailed] = useState(false);
  const [sms, setSms] = useState(false);
  const [email, setEmail] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const { onSignedOut } = props;

  useEffect(() => {
    let current = true;
    void getMyConsent().then((outcome) => {
      if (!current) return;
      if (outcome.kind === "ok") {
        setStored(outcome.data);
        setSms(outcome.data.sms);
        setEmail(outcome.data.emailState !== "no");
      } else if (outcome.kind === "signed-out") onSignedOut();
      else setFailed(true);
    });
    return () => {
      current = false;
    };
  }, [onSignedOut]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    const outcome = await saveMyConsent(stored?.emailAddress ? { sms, email } : { sms });
    setBusy(false);
    if (outcome.kind === "ok") {
      setStored(outcome.data);
      setSms(outcome.data.sms);
      setEmail(outcome.data.emailState !== "no");
      setMessage({ ok: true, text: "Your choices are saved." });
    } else if (outcome.kind === "signed-out") props.onSignedOut();
    else setMessage({ ok: false, text: "Couldn't save your choices. Check your connection and try again." });
  };

  return (
    <section className="night-group marketing-choices" aria-labelledby="me-marketing">
      <h2 id="me-marketing">Messages about future events</h2>
      {stored ? (
        <form className="form" onSubmit={save} noValidate>
          <MarketingBoxes
            idPrefix="me"
            legendHidden
            sms={sms}
            onSms={setSms}
            email={email}
            onEmail={stored.emailAddress ? setEmail : undefined}
            hint={
              stored.emailAddress
                ? `Texts go to this mobile, emails to ${stored.emailAddress}. You can also reply STOP to a text, or use Unsubscribe in an email.`
                : "Texts go to this mobile; you can also reply STOP to one. Book with an email address to get news by email."
            }
          />
          {stored.emailState === "pending" ? (
            <p className="notice" role="status">
              Waiting for your confirmation: we emailed {stored.emailAddress} a link. Until you use it, no emails about
              future events go there.
            </p>
          ) : null}
          <p className="hint">
            <Link to={paths.privacy}>What ticking these means</Link>
          </p>
          <p className={message ? `message ${message.ok ? "ok" : "error"}` : "sr-only"} role="status">
            {message?.text}
          </p>
          <button type="submit" className="button" disabled={busy} aria-busy={busy}>
            Save my choices
          </button>
        </form>
      ) : failed ? (
        <p className="notice" role="status">
          Your choices can't be loaded just now. Reload the page to try again.
        </p>
      ) : (
        <p className="empty" role="status" aria-busy="true">
          Loading your choices…
        </p>
      )}
    </section>
  );
}
