import { type FormEvent, useEffect, useState } from "react";
import type { EventSummary } from "../../events/types.ts";
import { formatPhone } from "../phone.ts";
import { saveUserDetails } from "../save-user-details.ts";
import type { BookingUser, Gender } from "../types.ts";
import { PHOTO_TYPES, validateDetails } from "../validate-details.ts";

export const SOLD_OUT_ALERT = "Sorry,no more seats are available for booking currently.Please try after some time.";

/** Step 3: who is coming. `onSaved` once a seat is held for them. */
export function DetailsForm(props: {
  phone: string;
  event: EventSummary;
  onSaved: (user: BookingUser) => void;
  /** The server no longer accepts this browser's verification (expired or cleared): verify again. */
  onUnverified: () => void;
}) {
  // What was typed survives Back from /confirmation and a reload, for this tab only (sessionStorage);
  // the photo has to be chosen again, since a file cannot be kept.
  const draftKey = `saathi-booking-draft:${props.event.id}`;
  const [draft] = useState(() => readDraft(draftKey));
  const [name, setName] = useState(draft.name);
  const [email, setEmail] = useState(draft.email);
  const [gender, setGender] = useState<Gender | "">(draft.gender);
  useEffect(() => {
    try {
      sessionStorage.setItem(draftKey, JSON.stringify({ name, email, gender }));
    } catch {
      // Storage refused (private mode): the form still works, it just won't be remembered.
    }
  }, [draftKey, name, email, gender]);
  const [photo, setPhoto] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [unverified, setUnverified] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = validateDetails({ name, email, gender, photo });
    if (problem || !photo || !gender) {
      setMessage(problem);
      return;
    }
    setBusy(true);
    setMessage(null);
    const outcome = await saveUserDetails({
      name,
      email,
      phone: props.phone,
      gender,
      eventID: props.event.id,
      eventName: props.event.event_name,
      image: photo,
    });
    setBusy(false);
    if (outcome.kind === "saved") {
      window.alert("Form submitted successfully!");
      props.onSaved({ userID: outcome.userID, name: name.trim(), email: email.trim(), phone: props.phone, gender });
    } else if (outcome.kind === "sold-out") {
      window.alert(SOLD_OUT_ALERT);
    } else if (outcome.kind === "failed") {
      setMessage("Failed to submit details");
    } else if (outcome.kind === "unverified") {
      setUnverified(true);
      setMessage("Your mobile number needs to be verified again before we can hold your seat.");
    } else {
      setMessage(outcome.error);
    }
  };

  return (
    <form className="form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="booking-verified-phone">Verified mobile</label>
        <input id="booking-verified-phone" name="phone" readOnly value={formatPhone(props.phone)} />
      </div>
      <div className="field">
        <label htmlFor="booking-name">Name</label>
        <input
          id="booking-name"
          name="name"
          autoComplete="name"
          maxLength={100}
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="booking-email">Email</label>
        <input
          id="booking-email"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={254}
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="booking-gender">Gender</label>
        <select
          id="booking-gender"
          name="gender"
          required
          value={gender}
          onChange={(e) => setGender(e.target.value as Gender | "")}
        >
          <option value="">Choose…</option>
          <option value="male">male</option>
          <option value="female">female</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="booking-photo">Photo</label>
        <input
          id="booking-photo"
          name="image"
          type="file"
          accept={PHOTO_TYPES.join(",")}
          required
          aria-describedby="booking-photo-hint"
          onChange={(e) => setPhoto(e.target.files?.[0] ?? null)}
        />
        <small id="booking-photo-hint" className="hint">
          JPEG, PNG or WebP, less than 5 MB. Other participants see it after the event.
        </small>
      </div>
      <p className="message error" role="alert">
        {message}
      </p>
      {unverified ? (
        <button type="button" className="button" onClick={props.onUnverified}>
          Verify my number again
        </button>
      ) : null}
      <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
        Submit
      </button>
    </form>
  );
}

function readDraft(key: string): { name: string; email: string; gender: Gender | "" } {
  try {
    const saved = JSON.parse(sessionStorage.getItem(key) ?? "{}") as Record<string, unknown>;
    return {
      name: typeof saved.name === "string" ? saved.name : "",
      email: typeof saved.email === "string" ? saved.email : "",
      gender: saved.gender === "male" || saved.gender === "female" ? saved.gender : "",
    };
  } catch {
    return { name: "", email: "", gender: "" };
  }
}
