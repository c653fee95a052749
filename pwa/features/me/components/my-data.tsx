import { useState } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import { deleteMyDetails, downloadMyData } from "../me-api.ts";

/** Hands `data` to the browser as a file named `my-data.json`. */
function saveAsFile(data: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = "my-data.json";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * What is kept about me (docs/decisions/029-kept-details.md): **Download my data** (a JSON file of
 * everything held about this number) and **Delete my details** (asked twice, then erased at once;
 * the session ends with it, so the page goes back to signing in).
 */
export function MyData(props: { onDeleted: () => void; onSignedOut: () => void }) {
  const [downloading, setDownloading] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const download = async () => {
    setDownloading(true);
    setMessage(null);
    const outcome = await downloadMyData();
    setDownloading(false);
    if (outcome.kind === "ok") {
      saveAsFile(outcome.data);
      setMessage({ ok: true, text: "Your data is downloaded as my-data.json." });
    } else if (outcome.kind === "signed-out") props.onSignedOut();
    else setMessage({ ok: false, text: "Couldn't download your data. Check your connection and try again." });
  };

  const erase = async () => {
    setDeleting(true);
    setMessage(null);
    const erased = await deleteMyDetails();
    setDeleting(false);
    if (erased) props.onDeleted();
    else setMessage({ ok: false, text: "Couldn't delete your details. Check your connection and try again." });
  };

  return (
    <section className="night-group my-data" aria-labelledby="me-data">
      <h2 id="me-data">Your details</h2>
      <p className="hint">
        See everything we hold about this number, or erase your name, email, date of birth and photos now.{" "}
        <Link to={paths.privacy}>What we keep, and for how long</Link>
      </p>
      <div className="my-data-actions">
        <button
          type="button"
          className="button"
          onClick={() => void download()}
          disabled={downloading}
          aria-busy={downloading}
        >
          Download my data
        </button>
        {confirming ? null : (
          <button type="button" className="button danger" onClick={() => setConfirming(true)}>
            Delete my details
          </button>
        )}
      </div>
      {confirming ? (
        <div className="notice my-data-confirm">
          <p id="me-delete-question">
            Delete your name, email, date of birth and photos from every booking, and your saved details? Your tickets
            and payments stay, and you will be signed out. This cannot be undone.
          </p>
          <div className="my-data-actions">
            <button
              type="button"
              className="button danger"
              onClick={() => void erase()}
              disabled={deleting}
              aria-busy={deleting}
            >
              Yes, delete my details
            </button>
            <button type="button" className="button" onClick={() => setConfirming(false)} disabled={deleting}>
              Keep them
            </button>
          </div>
        </div>
      ) : null}
      <p className={`message ${message?.ok ? "ok" : "error"}`} role={message?.ok ? "status" : "alert"}>
        {message?.text}
      </p>
    </section>
  );
}
