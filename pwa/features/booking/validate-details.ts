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

/**
 * The details form's client-side checks, first failure shown: required fields, then the photo, then
 * the box; null when all pass. The form shows a message only while it still applies, so
 * "All fields are required." goes once the fields are filled.
 */
export function validateDetails(input: DetailsInput): string | null {
  const genderMissing = input.asksGender !== false && !input.gender;
  if (!input.name.trim() || !input.email.trim() || genderMissing || !input.dateOfBirth) return FIELDS_REQUIRED;
  if (input.wantsToMeet === "") return FIELDS_REQUIRED;
  if (!input.photo && !input.savedPhoto) return PHOTO_REQUIRED;
  const photoProblem = input.photo && !input.savedPhoto ? checkPhoto(input.photo) : null;
  if (photoProblem) return photoProblem;
  if (!input.consent) return CONSENT_REQUIRED;
  return null;
}
