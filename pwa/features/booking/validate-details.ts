import { MAX_IMAGE_BYTES } from "../../../common/images.ts";
import type { Gender } from "./types.ts";

export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"];

export const FIELDS_REQUIRED = "All fields are required.";
export const PHOTO_REQUIRED = "Image upload is required.";
export const PHOTO_NOT_IMAGE = "Please choose an image file (JPEG, PNG or WebP).";
export const PHOTO_TOO_LARGE = "Image should be less than 5 MB.";
export const CONSENT_REQUIRED = "Please tick the box to confirm you have read who sees your details.";

export type DetailsInput = {
  name: string;
  email: string;
  /** "" until chosen; `nonbinary` at Mixed nights only. */
  gender: Gender | "nonbinary" | "";
  /** False at One group, which asks no gender (issue 37). */
  asksGender?: boolean;
  /** Mixed nights only: "" until chosen; left out where not asked. */
  wantsToMeet?: string;
  /** YYYY-MM-DD from the date input, "" until chosen. */
  dateOfBirth: string;
  photo: File | null;
  /** **Use my saved photo** is chosen: no new photo is needed. */
  savedPhoto?: boolean;
  /** The box under the notice of who sees what. */
  consent: boolean;
};

/** A chosen photo's own problem (not an image, 5 MB or more), checked as soon as it is chosen; null when fine. */
export function checkPhoto(photo: File): string | null {
  if (!PHOTO_TYPES.includes(photo.type)) return PHOTO_NOT_IMAGE;
  if (photo.size >= MAX_IMAGE_BYTES) return PHOTO_TOO_LARGE;
  return null;
}

/** The fields "All fields are required." covers, in the form's order. */
export type RequiredField = "name" | "email" | "gender" | "wantsToMeet" | "dateOfBirth";

/** What each missing field says beside it. */
export const FIELD_MISSING: Record<RequiredField, string> = {
  name: "Enter your name.",
  email: "Enter your email.",
  gender: "Choose your gender.",
  wantsToMeet: "Choose whom you would like to meet.",
  dateOfBirth: "Enter your date of birth.",
};

/** The fields still empty, in the form's order: each is marked where it is, and the first takes the focus. */
export function missingFields(input: DetailsInput): RequiredField[] {
  const empty: Record<RequiredField, boolean> = {
    name: !input.name.trim(),
    email: !input.email.trim(),
    gender: input.asksGender !== false && !input.gender,
    wantsToMeet: input.wantsToMeet === "",
    dateOfBirth: !input.dateOfBirth,
  };
  return (Object.keys(FIELD_MISSING) as RequiredField[]).filter((field) => empty[field]);
}

/**
 * The details form's client-side checks, first failure shown: required fields, then the photo, then
 * the box; null when all pass. The form shows a message only while it still applies, so
 * "All fields are required." goes once the fields are filled.
 */
export function validateDetails(input: DetailsInput): string | null {
  if (missingFields(input).length > 0) return FIELDS_REQUIRED;
  if (!input.photo && !input.savedPhoto) return PHOTO_REQUIRED;
  const photoProblem = input.photo && !input.savedPhoto ? checkPhoto(input.photo) : null;
  if (photoProblem) return photoProblem;
  if (!input.consent) return CONSENT_REQUIRED;
  return null;
}
