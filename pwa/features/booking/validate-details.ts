import { MAX_IMAGE_BYTES } from "../../../common/images.ts";
import type { Gender } from "./types.ts";

export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"];

export type DetailsInput = { name: string; email: string; gender: Gender | ""; photo: File | null };

/** The details form's client-side checks, first failure shown: required fields, then the photo; null when all pass. */
export function validateDetails(input: DetailsInput): string | null {
  if (!input.name.trim() || !input.email.trim() || !input.gender) return "All fields are required.";
  if (!input.photo) return "Image upload is required.";
  if (!PHOTO_TYPES.includes(input.photo.type)) return "Please choose an image file (JPEG, PNG or WebP).";
  if (input.photo.size >= MAX_IMAGE_BYTES) return "Image should be less than 5 MB.";
  return null;
}
