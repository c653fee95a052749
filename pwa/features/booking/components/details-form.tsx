import { MarketingBoxes } from "../../../lib/marketing-boxes.tsx";
import { type EventView, venueDateTime } from "../../events/index.ts";
import type { BookingUser, OfferState } from "../types.ts";
import { type DetailsFields, useDetailsFields } from "../use-details-fields.ts";
import { useJoinWaitlist } from "../use-join-waitlist.ts";
import { useSaveDetails } from "../use-save-details.ts";
import { FIELD_MISSING, type RequiredField } from "../validate-details.ts";
import { DateOfBirthField } from "./date-of-birth-field.tsx";
import { KeepDetailsBox, SavedPhotoChoice } from "./kept-details-fields.tsx";
import { MixedFields } from "./mixed-fields.tsx";
import { fieldProblem, GenderField, NameField, VerifiedPhoneField } from "./person-fields.tsx";
import { PhotoField } from "./photo-field.tsx";
import { PrivacyConsent } from "./privacy-consent.tsx";

/** Step 3: who is coming. `onSaved` once a seat is held for them, with until when. */
export function DetailsForm(props: {
  phone: string;
  event: EventView;
  /** Booking a seat a waitlist offer keeps: the gender is the offer's and cannot change. */
  offer?: OfferState;
  onSaved: (user: BookingUser, holdExpiresAt: string) => void;
  /** The seats ran out and this person joined the waitlist instead (null: they were already on it). */
  onJoinedWaitlist: (position: number | null) => void;
  /** The server no longer accepts this browser's verification (expired or cleared): verify again. */
  onUnverified: () => void;
}) {
  const eventId = props.event.id;
  // Older answers (a card kept offline from before formats) have none: Women meet men.
  const format = props.event.format ?? "women_men";
  const fields = useDetailsFields(props.phone, format, props.offer);
  const waitlist = useJoinWaitlist(eventId, props.phone, props.onJoinedWaitlist);
  const save = useSaveDetails(props, fields, waitlist);
  const keptUntil = props.offer ? venueDateTime(props.offer.expiresAt, props.event.timeZone) : null;

  return (
    <form className="form" onSubmit={save.submit} noValidate>
      {keptUntil ? (
        <p className="notice ok offer-kept">
          A seat is kept for you until <strong>{keptUntil.local}</strong>. Book it before then: after that it goes to
          the next person waiting.
        </p>
      ) : null}
      <VerifiedPhoneField idPrefix="booking" phone={props.phone} />
      <PersonDetails fields={fields} missing={save.missing} />
      <PhotoChoice fields={fields} phone={props.phone} />
      <PrivacyConsent checked={fields.consent} onChange={fields.setConsent} />
      <KeepDetailsBox checked={fields.keep} onChange={fields.setKeep} />
      <MarketingBoxes
        idPrefix="booking"
        sms={fields.marketingSms}
        onSms={fields.setMarketingSms}
        email={fields.marketingEmail}
        onEmail={fields.setMarketingEmail}
      />
      <p className="message error" role="alert">
        {save.shown}
      </p>
      {save.unverified || waitlist.unverified ? (
        <button type="button" className="button" onClick={props.onUnverified}>
          Verify my number again
        </button>
      ) : null}
      {save.waitlistOffered ? <WaitlistOffer waitlist={waitlist} onJoin={save.joinWaitlist} /> : null}
      <button type="submit" className="button primary" disabled={save.busy} aria-busy={save.busy}>
        Submit
      </button>
    </form>
  );
}

/**
 * Name, email, what this night's format asks of gender, and date of birth; each one `missing` (once
 * Submit found it empty) says so beside it.
 */
function PersonDetails({ fields, missing }: { fields: DetailsFields; missing: RequiredField[] }) {
  const problem = (field: RequiredField) => (missing.includes(field) ? FIELD_MISSING[field] : null);
  const email = fieldProblem("booking-email", problem("email"));
  return (
    <>
      <NameField idPrefix="booking" value={fields.name} onChange={fields.setName} problem={problem("name")} />
      <div className="field">
        <label htmlFor="booking-email">Email</label>
        <input
          id="booking-email"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={254}
          required
          value={fields.email}
          onChange={(e) => fields.setEmail(e.target.value)}
          {...email.inputProps}
        />
        {email.message}
      </div>
      {fields.format === "women_men" ? (
        <GenderField
          idPrefix="booking"
          value={fields.chosenGender}
          onChange={fields.setGender}
          fixed={fields.offerGender}
          problem={problem("gender")}
        />
      ) : null}
      {fields.format === "mixed" ? (
        <MixedFields
          idPrefix="booking"
          gender={fields.mixedGender}
          onGender={fields.setMixedGender}
          wantsToMeet={fields.wantsToMeet}
          onWantsToMeet={fields.setWantsToMeet}
          problems={{ gender: problem("gender"), wantsToMeet: problem("wantsToMeet") }}
        />
      ) : null}
      <DateOfBirthField
        idPrefix="booking"
        value={fields.dateOfBirth}
        onChange={fields.setDateOfBirth}
        problem={problem("dateOfBirth")}
      />
    </>
  );
}

/** The kept photo offered in place of a new one, or the picker for a new one. */
function PhotoChoice({ fields, phone }: { fields: DetailsFields; phone: string }) {
  return (
    <>
      {fields.savedPhoto ? (
        <SavedPhotoChoice phone={phone} useSaved={fields.useSaved} onChange={fields.setUseSaved} />
      ) : null}
      {fields.usingSaved ? null : (
        <PhotoField
          photo={fields.photo}
          preview={fields.photoPreview}
          problem={fields.photoProblem}
          inputRef={fields.photoInput}
          onChoose={(chosen, problem) => {
            fields.setPhoto(chosen);
            fields.setPhotoProblem(problem);
          }}
        />
      )}
    </>
  );
}

/** Offered once the seats ran out: the waitlist's answer and Join waitlist (none once a seat is free). */
function WaitlistOffer({ waitlist, onJoin }: { waitlist: ReturnType<typeof useJoinWaitlist>; onJoin: () => void }) {
  return (
    <div className="waitlist-offer">
      <p className={`message ${waitlist.seatFree ? "ok" : "error"}`} role="alert">
        {waitlist.message}
      </p>
      {waitlist.seatFree ? null : (
        <button type="button" className="button" onClick={onJoin} disabled={waitlist.busy} aria-busy={waitlist.busy}>
          Join waitlist
        </button>
      )}
    </div>
  );
}
