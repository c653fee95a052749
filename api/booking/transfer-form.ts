import type { AppDeps } from "../deps.ts";
import { BadRequest, TooLarge } from "../lib/errors.ts";
import { findEvent } from "./event-lookup.ts";
import { answersFor, type FormAnswers } from "./format-answers.ts";
import { assertImageHeader, MAX_IMAGE_BYTES, removeStoredImage, type StoredImage, storeImage } from "./images.ts";
import { copyKeptPhoto, keepDetails, touchKeptDetails } from "./kept-details.ts";
import type { PhotoTurn } from "./save-details.ts";
import { countSave } from "./save-details.ts";
import { acceptTransfer, checkTransfer, offerIdOf, transferEventOf } from "./transfer.ts";

/** What the details form sent (save-details-routes.ts reads and checks it) that a transfer uses. */
type DetailsForm = FormAnswers & {
  name: string;
  email: string;
  phone: string;
  dateOfBirth: string;
  image?: File;
  keepDetails?: "true" | "false";
  useSavedPhoto?: "true" | "false";
};

/**
 * The details form with `transferToken` (POST /save-user-details): the friend's side of a ticket given
 * to them (api/booking/transfer.ts, docs/decisions/058-ticket-transfer.md). Counted and judged as a
 * save is (the night's format's questions, the age, the photo), refused before the photo is stored,
 * and the photo deleted again when the transaction refuses (a second acceptance of the same link).
 */
export async function takeGivenTicket(
  deps: AppDeps,
  address: string,
  form: DetailsForm,
  token: string,
  photoTurn: PhotoTurn,
) {
  countSave(deps.db, { phone: form.phone, address, otpMaxPerAddress: deps.env.OTP_MAX_PER_ADDRESS }, deps.now());
  const offerId = offerIdOf(deps.env, token);
  const event = findEvent(deps.db, transferEventOf(deps.db, offerId) ?? 0);
  // The night's own questions; a link whose night is gone is refused by checkTransfer.
  const answers = event ? answersFor(event, form) : { gender: "unasked" as const, wantsToMeet: null };
  const friend = {
    phone: form.phone,
    name: form.name,
    email: form.email,
    gender: answers.gender,
    wantsToMeet: answers.wantsToMeet,
    dateOfBirth: form.dateOfBirth,
  };
  checkTransfer(deps, token, friend, deps.now());
  const upload = form.image && form.image.size > 0 ? form.image : undefined;
  if (!upload && form.useSavedPhoto !== "true") throw BadRequest("Add a photo of yourself.");
  if (upload && upload.size > MAX_IMAGE_BYTES) throw TooLarge("image larger than 5 MB");
  let photo: StoredImage;
  if (upload) {
    const bytes = new Uint8Array(await upload.arrayBuffer());
    await assertImageHeader(bytes);
    photo = await photoTurn(() => storeImage(deps.env.UPLOADS_DIR, bytes));
  } else photo = await copyKeptPhoto({ db: deps.db, uploadsDir: deps.env.UPLOADS_DIR }, form.phone);
  let taken: Awaited<ReturnType<typeof acceptTransfer>>;
  try {
    taken = await acceptTransfer(deps, { offerId, friend: { ...friend, photo } });
  } catch (error) {
    await removeStoredImage(deps.env.UPLOADS_DIR, photo).catch(() => undefined);
    throw error;
  }
  const now = deps.now();
  if (form.keepDetails === "true") {
    const { name, email, phone, dateOfBirth } = form;
    await keepDetails(
      { db: deps.db, uploadsDir: deps.env.UPLOADS_DIR, now },
      { name, email, phone, gender: answers.gender, dateOfBirth, photo },
    ).catch((error: unknown) => deps.log("error", "keeping the details failed", { error: String(error) }));
  } else touchKeptDetails(deps.db, form.phone, now);
  return taken;
}
