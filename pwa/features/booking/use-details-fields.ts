import { useEffect, useRef, useState } from "react";
import type { EventFormat } from "../../../common/formats.ts";
import { type Details, useBookingStore } from "./booking-store.ts";
import { getKeptDetails } from "./kept-details.ts";
import type { OfferState } from "./types.ts";
import type { DetailsInput } from "./validate-details.ts";

/** A field the form sets by its input (the photo has its own setter, which makes its preview). */
type Typed = Exclude<keyof Details, "photo" | "photoPreview">;
const setter =
  <K extends Typed>(key: K) =>
  (value: Details[K]) =>
    useBookingStore.getState().setDetails({ [key]: value } as Partial<Details>);

/**
 * The details form's fields (details-form.tsx), held in the booking store so Back from
 * /confirmation finds them as they were, the chosen photo and its preview included; filled in from
 * the waitlist offer's name and the details this verified number kept for next time.
 */
export function useDetailsFields(phone: string, format: EventFormat, offer?: OfferState) {
  const details = useBookingStore((s) => s.details);
  const { name, email, dateOfBirth, mixedGender, wantsToMeet, consent, keep, marketingSms, marketingEmail } = details;
  // Who meets whom decides what is asked (issue 37): Women meet men a gender, One group none, Mixed
  // Woman, Man or Non-binary and whom they would like to meet.
  const chosenGender = format === "women_men" ? details.gender : "";
  const offerGender = offer?.gender === "male" || offer?.gender === "female" ? offer.gender : undefined;
  const gender = format === "one_group" ? "" : format === "mixed" ? mixedGender : (offerGender ?? chosenGender);
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  const photoInput = useRef<HTMLInputElement>(null);
  // Details this verified number kept for next time (decision 029): they fill in what is still empty,
  // and a kept photo is offered in place of a new one, unless a new one was chosen already. The box
  // itself always starts unticked, as do the boxes about future events (the Spam Act's express consent).
  const [savedPhoto, setSavedPhoto] = useState(false);
  useEffect(() => {
    let current = true;
    void getKeptDetails(phone).then((kept) => {
      if (!current || !kept) return;
      const now = useBookingStore.getState().details;
      const keptGender = kept.gender === "male" || kept.gender === "female" ? kept.gender : "";
      useBookingStore.getState().setDetails({
        name: now.name || kept.name,
        email: now.email || kept.email,
        gender: now.gender || keptGender,
        dateOfBirth: now.dateOfBirth || kept.dateOfBirth,
        ...(kept.hasPhoto && now.useSaved === null ? { useSaved: !now.photo } : {}),
      });
      if (kept.hasPhoto) setSavedPhoto(true);
    });
    return () => {
      current = false;
    };
  }, [phone]);
  const useSaved = details.useSaved ?? false;
  const usingSaved = savedPhoto && useSaved;
  /** What the form's own checks read (validateDetails). */
  const checked: DetailsInput = {
    name,
    email,
    gender,
    asksGender: format !== "one_group",
    ...(format === "mixed" ? { wantsToMeet } : {}),
    dateOfBirth,
    photo: details.photo,
    savedPhoto: usingSaved,
    consent,
  };
  return {
    format,
    /** Every field as typed, and `set(field)` for its input: a new field needs no line here. */
    details,
    set: setter,
    name,
    setName: setter("name"),
    email,
    setEmail: setter("email"),
    dateOfBirth,
    setDateOfBirth: setter("dateOfBirth"),
    chosenGender,
    setGender: setter("gender"),
    offerGender,
    mixedGender,
    setMixedGender: setter("mixedGender"),
    wantsToMeet,
    setWantsToMeet: setter("wantsToMeet"),
    gender,
    photo: details.photo,
    photoPreview: details.photoPreview,
    setPhoto: (photo: File | null) => useBookingStore.getState().setPhoto(photo),
    photoProblem,
    setPhotoProblem,
    photoInput,
    savedPhoto,
    useSaved,
    setUseSaved: setter("useSaved"),
    usingSaved,
    consent,
    setConsent: setter("consent"),
    keep,
    setKeep: setter("keep"),
    marketingSms,
    setMarketingSms: setter("marketingSms"),
    marketingEmail,
    setMarketingEmail: setter("marketingEmail"),
    checked,
  };
}

export type DetailsFields = ReturnType<typeof useDetailsFields>;
