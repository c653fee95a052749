import { useEffect, useRef, useState } from "react";
import type { EventFormat, MixedGender, WantsToMeetValue } from "../../../common/formats.ts";
import { readDraft, saveDraft } from "./draft.ts";
import { getKeptDetails } from "./kept-details.ts";
import type { Gender, OfferState } from "./types.ts";
import type { DetailsInput } from "./validate-details.ts";

/**
 * The details form's fields (details-form.tsx): filled in from the draft this browser kept for the
 * event, the waitlist offer's name, and the details this verified number kept for next time.
 */
export function useDetailsFields(eventId: number, phone: string, format: EventFormat, offer?: OfferState) {
  // The photo has to be chosen again after Back or a reload, since a file cannot be kept.
  const [draft] = useState(() => readDraft(eventId));
  // A waitlist offer opened on another phone has no draft: the name given when joining fills in.
  const [name, setName] = useState(draft.name || (offer?.name ?? ""));
  const [email, setEmail] = useState(draft.email);
  // Who meets whom decides what is asked (issue 37): Women meet men a gender, One group none, Mixed
  // Woman, Man or Non-binary and whom they would like to meet.
  const [chosenGender, setGender] = useState<Gender | "">(format === "women_men" ? draft.gender : "");
  const [mixedGender, setMixedGender] = useState<MixedGender | "">("");
  // Someone's orientation: held in this form only, never in the draft.
  const [wantsToMeet, setWantsToMeet] = useState<WantsToMeetValue | "">("");
  const offerGender = offer?.gender === "male" || offer?.gender === "female" ? offer.gender : undefined;
  const gender = format === "one_group" ? "" : format === "mixed" ? mixedGender : (offerGender ?? chosenGender);
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
    void getKeptDetails(phone).then((kept) => {
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
  }, [phone]);
  const usingSaved = savedPhoto && useSaved;
  /** What the form's own checks read (validateDetails). */
  const checked: DetailsInput = {
    name,
    email,
    gender,
    asksGender: format !== "one_group",
    ...(format === "mixed" ? { wantsToMeet } : {}),
    dateOfBirth,
    photo,
    savedPhoto: usingSaved,
    consent,
  };
  return {
    format,
    name,
    setName,
    email,
    setEmail,
    dateOfBirth,
    setDateOfBirth,
    chosenGender,
    setGender,
    offerGender,
    mixedGender,
    setMixedGender,
    wantsToMeet,
    setWantsToMeet,
    gender,
    photo,
    setPhoto,
    photoProblem,
    setPhotoProblem,
    photoInput,
    savedPhoto,
    useSaved,
    setUseSaved,
    usingSaved,
    consent,
    setConsent,
    keep,
    setKeep,
    marketingSms,
    setMarketingSms,
    marketingEmail,
    setMarketingEmail,
    checked,
  };
}

export type DetailsFields = ReturnType<typeof useDetailsFields>;
