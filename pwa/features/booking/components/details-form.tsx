import { type FormEvent, useEffect, useRef, useState } from "react";
import type { MixedGender, WantsToMeetValue } from "../../../../common/formats.ts";
import { announcementFor } from "../../../lib/announcement-link.ts";
import { MarketingBoxes } from "../../../lib/marketing-boxes.tsx";
import { shrinkPhoto } from "../../../lib/shrink-photo.ts";
import { venueDateTime } from "../../events/format.ts";
import type { EventSummary } from "../../events/types.ts";
import { readDraft, saveDraft } from "../draft.ts";
import { getKeptDetails } from "../kept-details.ts";
import { saveUserDetails } from "../save-user-details.ts";
import { genderFullMessage, SOLD_OUT_WAITLIST_MESSAGE } from "../seat-messages.ts";
import type { BookingUser, Gender, OfferState } from "../types.ts";
import { useJoinWaitlist } from "../use-join-waitlist.ts";
import { CONSENT_REQUIRED, FIELDS_REQUIRED, PHOTO_REQUIRED, validateDetails } from "../validate-details.ts";
import { DateOfBirthField } from "./date-of-birth-field.tsx";
import { KeepDetailsBox, SavedPhotoChoice } from "./kept-details-fields.tsx";
import { MixedFields } from "./mixed-fields.tsx";
import { GenderField, NameField, VerifiedPhoneField } from "./person-fields.tsx";
import { PhotoField } from "./photo-field.tsx";
import { PrivacyConsent } from "./privacy-consent.tsx";

/** The form's own checks: shown only while they still apply, so each goes once it is put right. */
const CHECKS = new Set<string>([FIELDS_REQUIRED, PHOTO_REQUIRED, CONSENT_REQUIRED]);

export const SOLD_OUT_ALERT = "Sorry,no more seats are available for booking currently.Please try after some time.";

/** Step 3: who is coming. `onSaved` once a seat is held for them, with until when. */
export function DetailsForm(props: {
  phone: string;
  event: EventSummary;
  /** Booking a seat a waitlist offer keeps: the gender is the offer's and cannot change. */
  offer?: OfferState;
  onSaved: (user: BookingUser, holdExpiresAt: string) => void;
  /** The seats ran out and this person joined the waitlist instead (null: they were already on it). */
  onJoinedWaitlist: (position: number | null) => void;
  /** The server no longer accepts this browser's verification (expired or cleared): verify again. */
  onUnverified: () => void;
}) {
  const eventId = props.event.id;
  // The photo has to be chosen again after Back or a reload, since a file cannot be kept.
  const [draft] = useState(() => readDraft(eventId));
  // A waitlist offer opened on another phone has no draft: the name given when joining fills in.
  const [name, setName] = useState(draft.name || (props.offer?.name ?? ""));
  const [email, setEmail] = useState(draft.email);
  // Who meets whom decides what is asked (issue 37): Women meet men a gender, One group none, Mixed
  // Woman, Man or Non-binary and whom they would like to meet.
  // Older answers (a card kept offline from before formats) have none: Women meet men.
  const format = props.event.format ?? "women_men";
  const [chosenGender, setGender] = useState<Gender | "">(format === "women_men" ? draft.gender : "");
  const [mixedGender, setMixedGender] = useState<MixedGender | "">("");
  // Someone's orientation: held in this form only, never in the draft.
  const [wantsToMeet, setWantsToMeet] = useState<WantsToMeetValue | "">("");
  const offerGender =
    props.offer?.gender === "male" || props.offer?.gender === "female" ? props.offer.gender : undefined;
  const gender = format === "one_group" ? "" : format === "mixed" ? mixedGender : (offerGender ?? chosenGender);
  const asked = {
    asksGender: format !== "one_group",
    ...(format === "mixed" ? { wantsToMeet } : {}),
  };
  const [dateOfBirth, setDateOfBirth] = useState("");
  useEffect(() => {
    saveDraft(eventId, { name, email, ...(format === "women_men" ? { gender: chosenGender } : {}) });
  }, [eventId, name, email, format, chosenGender]);
  const [photo, setPhoto] = useState<File | null>(null);
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  const photoInput = useRef<HTMLInputElement>(null);
  const [consent, setConsent] = useState(false);
  // Details this verified number kept for next time (decision 029): they fill in what is still empty,
  // and a kept photo is offered in place of a new one. The box itself always starts unticked.
  const [keep, setKeep] = useState(false);
  // Messages about future events: unticked, whatever this number chose before (the Spam Act's express consent).
  const [marketingSms, setMarketingSms] = useState(false);
  const [marketingEmail, setMarketingEmail] = useState(false);
  const [savedPhoto, setSavedPhoto] = useState(false);
  const [useSaved, setUseSaved] = useState(false);
  useEffect(() => {
    let current = true;
    void getKeptDetails(props.phone).then((kept) => {
      if (!current || !kept) return;
      setName((v) => v || kept.name);
      setEmail((v) => v || kept.email);
      const keptGender = kept.gender;
      if (keptGender === "male" || keptGender === "female") setGender((v) => v || keptGender);
      setDateOfBirth((v) => v || kept.dateOfBirth);
      if (kept.hasPhoto) {
        setSavedPhoto(true);
        setUseSaved(true);
      }
    });
    return () => {
      current = false;
    };
  }, [props.phone]);
  const usingSaved = savedPhoto && useSaved;
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [unverified, setUnverified] = useState(false);
  // Set once the seats (of this gender, or all of them) ran out: the waitlist is offered instead.
  const [waitlistOffered, setWaitlistOffered] = useState(false);
  const waitlist = useJoinWaitlist(eventId, props.phone, props.onJoinedWaitlist);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = validateDetails({
      name,
      email,
      gender,
      ...asked,
      dateOfBirth,
      photo,
      savedPhoto: usingSaved,
      consent,
    });
    if (problem || (!photo && !usingSaved) || (asked.asksGender && !gender)) {
      // A refused file already says why under the picker: that, not "required", is what to fix.
      if (problem === PHOTO_REQUIRED && photoProblem) {
        setMessage(null);
        photoInput.current?.focus();
      } else setMessage(problem);
      return;
    }
    setBusy(true);
    setMessage(null);
    // The copy decoded when the photo was chosen (the same promise): a file that is not an image
    // never goes up, even when Submit comes before its decoding ended.
    const image = usingSaved || !photo ? null : await shrinkPhoto(photo);
    if (!usingSaved && !image) {
      setBusy(false);
      setPhoto(null);
      setPhotoProblem(PHOTO_REQUIRED);
      if (photoInput.current) photoInput.current.value = "";
      photoInput.current?.focus();
      return;
    }
    setWaitlistOffered(false);
    waitlist.reset();
    const outcome = await saveUserDetails({
      name,
      email,
      phone: props.phone,
      ...(gender ? { gender } : {}),
      ...(format === "mixed" && wantsToMeet ? { wantsToMeet } : {}),
      dateOfBirth,
      eventID: eventId,
      eventName: props.event.event_name,
      image,
      keepDetails: keep,
      marketing: { sms: marketingSms, email: marketingEmail },
      announcementId: announcementFor(eventId),
    });
    setBusy(false);
    if (outcome.kind === "saved") {
      window.alert("Form submitted successfully!");
      props.onSaved(
        {
          userID: outcome.userID,
          name: name.trim(),
          email: email.trim(),
          phone: props.phone,
          gender: gender || "unasked",
        },
        outcome.holdExpiresAt,
      );
    } else if (outcome.kind === "gender-full") {
      setMessage(genderFullMessage(outcome.gender));
      setWaitlistOffered(true);
    } else if (outcome.kind === "sold-out") {
      window.alert(SOLD_OUT_ALERT);
      setMessage(SOLD_OUT_WAITLIST_MESSAGE);
      setWaitlistOffered(true);
    } else if (outcome.kind === "failed") {
      setMessage("Failed to submit details");
    } else if (outcome.kind === "unverified") {
      setUnverified(true);
      setMessage("Your mobile number needs to be verified again before we can hold your seat.");
    } else {
      setMessage(outcome.error);
    }
  };

  const joinWaitlist = () => {
    // Only Women meet men has a line per gender; a one-pool night's line asks none.
    const side = format === "women_men" ? (offerGender ?? chosenGender) : undefined;
    if (!name.trim() || (format === "women_men" && !side)) {
      setMessage("Enter your name and gender to join the waitlist.");
      return;
    }
    void waitlist.join(name, side || undefined, marketingSms);
  };
  const keptUntil = props.offer ? venueDateTime(props.offer.expiresAt, props.event.time_zone) : null;
  const stillApplies =
    message === null ||
    !CHECKS.has(message) ||
    validateDetails({ name, email, gender, ...asked, dateOfBirth, photo, savedPhoto: usingSaved, consent }) === message;
  const shown = waitlist.seatFree || !stillApplies ? null : message;

  return (
    <form className="form" onSubmit={submit} noValidate>
      {keptUntil ? (
        <p className="notice ok offer-kept">
          A seat is kept for you until <strong>{keptUntil.local}</strong>. Book it before then: after that it goes to
          the next person waiting.
        </p>
      ) : null}
      <VerifiedPhoneField idPrefix="booking" phone={props.phone} />
      <NameField idPrefix="booking" value={name} onChange={setName} />
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
      {format === "women_men" ? (
        <GenderField idPrefix="booking" value={chosenGender} onChange={setGender} fixed={offerGender} />
      ) : null}
      {format === "mixed" ? (
        <MixedFields
          idPrefix="booking"
          gender={mixedGender}
          onGender={setMixedGender}
          wantsToMeet={wantsToMeet}
          onWantsToMeet={setWantsToMeet}
        />
      ) : null}
      <DateOfBirthField idPrefix="booking" value={dateOfBirth} onChange={setDateOfBirth} />
      {savedPhoto ? <SavedPhotoChoice phone={props.phone} useSaved={useSaved} onChange={setUseSaved} /> : null}
      {usingSaved ? null : (
        <PhotoField
          photo={photo}
          problem={photoProblem}
          inputRef={photoInput}
          onChoose={(chosen, problem) => {
            setPhoto(chosen);
            setPhotoProblem(problem);
          }}
        />
      )}
      <PrivacyConsent checked={consent} onChange={setConsent} />
      <KeepDetailsBox checked={keep} onChange={setKeep} />
      <MarketingBoxes
        idPrefix="booking"
        sms={marketingSms}
        onSms={setMarketingSms}
        email={marketingEmail}
        onEmail={setMarketingEmail}
      />
      <p className="message error" role="alert">
        {shown}
      </p>
      {unverified || waitlist.unverified ? (
        <button type="button" className="button" onClick={props.onUnverified}>
          Verify my number again
        </button>
      ) : null}
      {waitlistOffered ? (
        <div className="waitlist-offer">
          <p className={`message ${waitlist.seatFree ? "ok" : "error"}`} role="alert">
            {waitlist.message}
          </p>
          {waitlist.seatFree ? null : (
            <button
              type="button"
              className="button"
              onClick={joinWaitlist}
              disabled={waitlist.busy}
              aria-busy={waitlist.busy}
            >
              Join waitlist
            </button>
          )}
        </div>
      ) : null}
      <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
        Submit
      </button>
    </form>
  );
}
