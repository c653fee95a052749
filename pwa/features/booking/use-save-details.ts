import { type FormEvent, useState } from "react";
import { flushSync } from "react-dom";
import { useNavigate } from "react-router-dom";
import { announcementFor } from "../../lib/announcement-link.ts";
import { shrinkPhoto } from "../../lib/shrink-photo.ts";
import type { EventView } from "../events/index.ts";
import { useBookingStore } from "./booking-store.ts";
import { saveUserDetails } from "./save-user-details.ts";
import { genderFullMessage, SOLD_OUT_ALERT, SOLD_OUT_WAITLIST_MESSAGE } from "./seat-messages.ts";
import type { BookingUser } from "./types.ts";
import type { DetailsFields } from "./use-details-fields.ts";
import type { useJoinWaitlist } from "./use-join-waitlist.ts";
import {
  CONSENT_REQUIRED,
  FIELDS_REQUIRED,
  missingFields,
  PHOTO_REQUIRED,
  type RequiredField,
  validateDetails,
} from "./validate-details.ts";

/** The form's own checks: shown only while they still apply, so each goes once it is put right. */
const CHECKS = new Set<string>([FIELDS_REQUIRED, PHOTO_REQUIRED, CONSENT_REQUIRED]);

/** The input (or the group of radios) of each required field on the details form. */
const FIELD_IDS: Record<RequiredField, string> = {
  name: "booking-name",
  email: "booking-email",
  gender: "booking-gender",
  wantsToMeet: "booking-wants-to-meet",
  dateOfBirth: "booking-date-of-birth",
};
const fieldId = (field: RequiredField, mixed: boolean) =>
  field === "gender" && mixed ? "booking-mixed-gender" : FIELD_IDS[field];

function focusField(id: string) {
  const element = document.getElementById(id);
  (element instanceof HTMLFieldSetElement ? element.querySelector("input") : element)?.focus();
}

type SaveProps = {
  phone: string;
  event: EventView;
  onSaved: (user: BookingUser, holdExpiresAt: string) => void;
};

/**
 * The details form's Submit (details-form.tsx): its checks, the photo's upload copy, the save that
 * holds a seat, and every outcome of it: held, this gender's or every seat gone (the waitlist is
 * offered instead), not verified any more, or refused.
 */
export function useSaveDetails(props: SaveProps, fields: DetailsFields, waitlist: ReturnType<typeof useJoinWaitlist>) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [unverified, setUnverified] = useState(false);
  // Set once the seats (of this gender, or all of them) ran out: the waitlist is offered instead.
  const [waitlistOffered, setWaitlistOffered] = useState(false);
  // Set at the first Submit with fields missing: from then on each empty field is marked where it is.
  const [tried, setTried] = useState(false);
  const { format, name, email, gender, photo, usingSaved, photoInput } = fields;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = validateDetails(fields.checked);
    if (problem || (!photo && !usingSaved) || (fields.checked.asksGender && !gender)) {
      // A refused file already says why under the picker: that, not "required", is what to fix.
      if (problem === PHOTO_REQUIRED && fields.photoProblem) {
        setMessage(null);
        photoInput.current?.focus();
        return;
      }
      // Marked before the focus moves, so the first empty field is announced with what it lacks.
      flushSync(() => {
        setMessage(problem);
        setTried(true);
      });
      const [first] = missingFields(fields.checked);
      if (first) focusField(fieldId(first, format === "mixed"));
      return;
    }
    setBusy(true);
    setMessage(null);
    // The copy decoded when the photo was chosen (the same promise): a file that is not an image
    // never goes up, even when Submit comes before its decoding ended.
    const image = usingSaved || !photo ? null : await shrinkPhoto(photo);
    if (!usingSaved && !image) {
      setBusy(false);
      fields.setPhoto(null);
      fields.setPhotoProblem(PHOTO_REQUIRED);
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
      ...(format === "mixed" && fields.wantsToMeet ? { wantsToMeet: fields.wantsToMeet } : {}),
      dateOfBirth: fields.dateOfBirth,
      eventID: props.event.id,
      eventName: props.event.name,
      image,
      keepDetails: fields.keep,
      marketing: { sms: fields.marketingSms, email: fields.marketingEmail },
      announcementId: announcementFor(props.event.id),
      transferToken: useBookingStore.getState().transferToken ?? undefined,
    });
    setBusy(false);
    if (outcome.kind === "transferred") {
      // The ticket is theirs, paid: it shows on /me, where the code signed them in.
      useBookingStore.setState({ transferToken: null });
      navigate("/me");
    } else if (outcome.kind === "saved") {
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
    const side = format === "women_men" ? (fields.offerGender ?? fields.chosenGender) : undefined;
    if (!name.trim() || (format === "women_men" && !side)) {
      setMessage("Enter your name and gender to join the waitlist.");
      return;
    }
    void waitlist.join(name, side || undefined, fields.marketingSms);
  };

  const stillApplies = message === null || !CHECKS.has(message) || validateDetails(fields.checked) === message;
  return {
    submit,
    joinWaitlist,
    busy,
    /** The message to show now: none while a seat is free to book, nor once its check passes. */
    shown: waitlist.seatFree || !stillApplies ? null : message,
    unverified,
    waitlistOffered,
    /** The required fields still empty, once Submit found some: each says so beside it. */
    missing: tried ? missingFields(fields.checked) : [],
  };
}
