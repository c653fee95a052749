import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { bookings, type PersonGender, users, type WantsToMeet } from "../../db/schema.ts";
import { TooLarge } from "../lib/errors.ts";
import { assertUnderLimit, hitsInWindow, type Limit, recordHit } from "../lib/rate-limit.ts";
import type { ConsentMailEnv } from "../messaging/consent.ts";
import {
  type Attendee,
  announcementOf,
  assertCanHold,
  giveBackSeat,
  type HeldSeat,
  type HoldExtras,
  holdSeat,
  isFirstSave,
  type MarketingBoxes,
  recordBookingConsent,
} from "./holds.ts";
import {
  assertImageHeader,
  MAX_IMAGE_BYTES,
  NO_PHOTO,
  removeStoredFiles,
  removeStoredImage,
  type StoredImage,
  storeImage,
} from "./images.ts";
import { photoJobsOf } from "./photo-jobs.ts";

// Saving the details form: how often a phone and an address may save, and the seat and photo of one
// save, in the order decision 007 sets (the seat first for a first save). The seat itself is holds.ts.

const HOUR = 3_600_000;
export const SAVES_PER_PHONE: Limit = { bucket: "save-details-phone", max: 10, windowMs: HOUR };
const SAVES_PER_ADDRESS = 10;

/**
 * Counts one details save against its phone and, from the phone's second save in the hour, its
 * address: 10 an hour each, 429 after. An
 * operator who raised OTP_MAX_PER_ADDRESS (many people behind one venue or carrier address) raised
 * it for the people who then save their details from there too, so the address allows as many.
 * Both are checked before either is counted, with no await between, so a refusal counts nothing.
 */
export function countSave(db: Db, input: { phone: string; address: string; otpMaxPerAddress: number }, now: number) {
  const perAddress: Limit = {
    bucket: "save-details-address",
    max: Math.max(SAVES_PER_ADDRESS, input.otpMaxPerAddress),
    windowMs: HOUR,
  };
  // A phone's first save of the hour does not count against its address: many verified phones share
  // a carrier's or a venue's address (docs/decisions/003), each phone keeps one photo pair per event,
  // and every phone had to type a code texted to it. Its repeated saves count there as before.
  const repeat = hitsInWindow(db, SAVES_PER_PHONE, input.phone, now) > 0;
  assertUnderLimit(db, SAVES_PER_PHONE, input.phone, now);
  if (repeat) assertUnderLimit(db, perAddress, input.address, now);
  recordHit(db, SAVES_PER_PHONE, input.phone, now);
  if (repeat) recordHit(db, perAddress, input.address, now);
}

/** Runs photo work in its turn (the route's limit on photos decoded at once); by default at once. */
export type PhotoTurn = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * The details form: the seat, and the photo stored for it (decoded, re-encoded, thumbnailed).
 *
 * The seat first, the photo after (docs/decisions/007-scale.md, issue 38): a phone's first save for
 * the event holds its seat at once, in the hold's transaction with no photo yet (NO_PHOTO), and only
 * then stores the photo and attaches it in a second short transaction. In an on-sale rush the seats go
 * to the first buyers the moment they ask, and everyone after them is refused by the hold's own
 * check, without waiting for anyone's photo. The upload's header is read before the caller answers
 * (not an image: a 415, and the seat given back); decoding, re-encoding and attaching it happen after,
 * in `photo`, which saveUserDetails records in photoJobsOf(db), so a buyer is told the seat is theirs
 * whatever photos are queued ahead. A photo that then fails gives the seat back, and the checkout,
 * which waits for the photo first, says so (checkout.ts): nobody pays for a seat without its photo.
 *
 * A retry (the phone already has a booking here) and a phone with a live waitlist offer keep the
 * old order, photo then hold, and `photo` is stored before this returns: each already has its seat
 * kept (its own hold, the offer's seat), so nothing is gained by holding first, and a broken photo on
 * a retry must not cost the seat it had.
 * Such a photo is stored before the transaction because sharp is asynchronous and nothing may await
 * inside it, and deleted again when the hold is refused, so refusals leave nothing behind.
 *
 * The caller has already refused a closed or full event (assertCanHold), so a sold-out night decodes
 * nothing. Files are deleted only after the transaction that stopped naming them committed: a crash in
 * between leaves an orphan for the upload sweep, never a row naming a missing file.
 */
export async function saveUserDetails(
  deps: {
    db: Db;
    uploadsDir: string;
    holdMinutes: number;
    now: () => number;
    photoTurn?: PhotoTurn;
    consentMail: ConsentMailEnv;
  },
  input: {
    eventId: number;
    name: string;
    email: string;
    phone: string;
    gender: PersonGender;
    wantsToMeet?: WantsToMeet | null;
    dateOfBirth: string;
    /** The upload, or how to store a photo for this booking (a copy of the number's saved photo). */
    image: File | (() => Promise<StoredImage>);
    /** The seat holdBeforePhoto already held for this save, from the fields sent before the photo. */
    heldBeforePhoto?: HeldSeat;
  } & HoldExtras,
): Promise<{ userId: number; bookingId: number; holdExpiresAt: number; photo: Promise<StoredImage> }> {
  const image = input.image;
  if (image instanceof File && image.size > MAX_IMAGE_BYTES) throw TooLarge("image larger than 5 MB");
  const photoTurn: PhotoTurn = deps.photoTurn ?? ((task) => task());
  const storePhoto = async () =>
    image instanceof File ? storeImage(deps.uploadsDir, new Uint8Array(await image.arrayBuffer())) : image();
  const { name, email, phone, gender, dateOfBirth } = input;
  const wantsToMeet = input.wantsToMeet ?? null;
  const attendee = (stored: StoredImage): Attendee => ({
    name,
    email,
    phone,
    gender,
    wantsToMeet,
    dateOfBirth,
    ...stored,
  });
  const hold = (stored: StoredImage, marketing: MarketingBoxes | undefined) =>
    holdSeat(deps.db, {
      eventId: input.eventId,
      attendee: attendee(stored),
      holdMinutes: deps.holdMinutes,
      now: deps.now(),
      marketing,
      announcementId: input.announcementId,
      consentMail: deps.consentMail,
    });
  const early = input.heldBeforePhoto;
  if (early || isFirstSave(deps.db, input.eventId, phone, deps.now())) {
    const held = early ?? hold({ imageName: NO_PHOTO, thumbName: NO_PHOTO }, undefined);
    // The upload's header is read before the reply (a file that is no image is refused at once, its
    // seat given back); decoding and storing it come after the reply, in the photo's turn.
    let bytes: Uint8Array | undefined;
    try {
      if (image instanceof File) {
        bytes = new Uint8Array(await image.arrayBuffer());
        await assertImageHeader(bytes);
      }
    } catch (error) {
      giveBackSeat(deps.db, held);
      throw error;
    }
    const upload = bytes;
    const photo = (async () => {
      let stored: StoredImage;
      try {
        stored = await photoTurn(() => (upload ? storeImage(deps.uploadsDir, upload) : storePhoto()));
      } catch (error) {
        giveBackSeat(deps.db, held);
        throw error;
      }
      if (!attachPhoto(deps.db, held, stored)) await removeStoredImage(deps.uploadsDir, stored);
      await removeStoredFiles(deps.uploadsDir, held.unreferencedPhotos).catch(() => undefined);
      return stored;
    })();
    // Handled here, so a photo that fails is never an unhandled rejection; photoJobs keeps its error.
    photo.catch(() => undefined);
    photoJobsOf(deps.db).track(held.userId, photo, { phone, now: deps.now(), forgetAt: held.holdExpiresAt });
    // A copy of the number's kept photo is quick, and its refusal (none kept) is this reply's.
    if (!upload) await photo;
    // What came with the form is on the record before the reply: the boxes ticked, and the link's
    // announcement (a hold taken before the photo did not know it, sent after it).
    recordFormExtras(
      deps.db,
      { eventId: input.eventId, held, attendee: attendee({ imageName: NO_PHOTO, thumbName: NO_PHOTO }) },
      {
        marketing: input.marketing,
        announcementId: early ? input.announcementId : undefined,
        consentMail: deps.consentMail,
      },
      deps.now(),
    );
    return { userId: held.userId, bookingId: held.bookingId, holdExpiresAt: held.holdExpiresAt, photo };
  }
  // Checked again when the photo's turn comes: those queued behind a sold-out event decode nothing.
  const stored = await photoTurn(async () => {
    assertCanHold(deps.db, { eventId: input.eventId, phone, gender }, deps.now());
    return storePhoto();
  });
  let held: HeldSeat;
  try {
    held = hold(stored, input.marketing);
  } catch (error) {
    await removeStoredImage(deps.uploadsDir, stored);
    throw error;
  }
  // Best effort: whatever is left behind is an orphan the upload sweep deletes within hours.
  await removeStoredFiles(deps.uploadsDir, held.unreferencedPhotos).catch(() => undefined);
  return {
    userId: held.userId,
    bookingId: held.bookingId,
    holdExpiresAt: held.holdExpiresAt,
    photo: Promise.resolve(stored),
  };
}

/**
 * The boxes ticked on a first save's form and the announcement its link came through, recorded with
 * the seat held before its photo, before the reply. A photo that fails afterwards gives the seat back
 * but leaves these: the number did tick the boxes, and the link was followed.
 */
function recordFormExtras(
  db: Db,
  input: { eventId: number; held: HeldSeat; attendee: Attendee },
  extras: HoldExtras,
  now: number,
): void {
  if (!extras.marketing?.sms && !extras.marketing?.email && extras.announcementId === undefined) return;
  db.transaction(
    (tx) => {
      if (extras.announcementId !== undefined)
        tx.update(bookings)
          .set({ announcementId: announcementOf(tx, input.eventId, extras.announcementId) })
          .where(eq(bookings.id, input.held.bookingId))
          .run();
      recordBookingConsent(tx, input.attendee, extras, now);
    },
    { behavior: "immediate" },
  );
}

/**
 * Names the stored photo on a seat held before it (saveUserDetails). False when the row no longer
 * waits for it: a concurrent save of the same phone released this hold and pointed its row at that
 * save's photo, or the seat was given back, so this photo is named by nothing and the caller deletes it.
 */
function attachPhoto(db: Db, held: HeldSeat, stored: StoredImage): boolean {
  const attached = db
    .update(users)
    .set(stored)
    .where(and(eq(users.id, held.userId), eq(users.imageName, NO_PHOTO)))
    .returning({ id: users.id })
    .get();
  return attached !== undefined;
}
