import { chmod, copyFile } from "node:fs/promises";
import { join } from "node:path";
import { eq, lt } from "drizzle-orm";
import { type KeptDetails, keptDetails } from "../../db/access-schema.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import type { PersonGender } from "../../db/schema.ts";
import { BadRequest } from "../lib/errors.ts";
import {
  NO_PHOTO,
  newStoredImage,
  prepareUploadsDir,
  removeStoredFiles,
  STORED_NAME,
  type StoredImage,
  UPLOAD_FILE_MODE,
} from "./images.ts";

// Details kept if the guest chooses (**Keep my details for next time**, docs/decisions/029-kept-details.md):
// one row per verified mobile, with a photo copy of its own, so a night's erasure after RETENTION_DAYS
// never reaches it and erasing the kept row never reaches a night's photo.

const DAY = 24 * 60 * 60 * 1000;
/** Kept details with no booking of their number for this long are erased by the retention job. */
export const KEPT_DETAILS_IDLE_MS = 548 * DAY; // 18 months

/** What the form is prefilled with: never the stored file names, only whether a photo is kept. */
export type KeptForForm = {
  name: string;
  email: string;
  dateOfBirth: string;
  gender: PersonGender;
  hasPhoto: boolean;
};

export function keptDetailsOf(db: DbOrTx, phone: string): KeptDetails | undefined {
  return db.select().from(keptDetails).where(eq(keptDetails.phone, phone)).get();
}

export function keptForForm(db: DbOrTx, phone: string): KeptForForm | null {
  const kept = keptDetailsOf(db, phone);
  if (!kept) return null;
  return {
    name: kept.name,
    email: kept.email,
    dateOfBirth: kept.dateOfBirth,
    gender: kept.gender,
    hasPhoto: kept.imageName !== NO_PHOTO,
  };
}

/** A copy of a stored photo pair under new random names (owner-only, as storeImage writes them). */
export async function copyStoredImage(uploadsDir: string, from: StoredImage): Promise<StoredImage> {
  if (!STORED_NAME.test(from.imageName) || !STORED_NAME.test(from.thumbName)) throw BadRequest("no saved photo");
  await prepareUploadsDir(uploadsDir);
  const copy = newStoredImage();
  try {
    for (const [src, dst] of [
      [from.imageName, copy.imageName],
      [from.thumbName, copy.thumbName],
    ] as const) {
      await copyFile(join(uploadsDir, src), join(uploadsDir, dst));
      await chmod(join(uploadsDir, dst), UPLOAD_FILE_MODE);
    }
  } catch {
    await removeStoredFiles(uploadsDir, [copy.imageName, copy.thumbName]);
    throw BadRequest("the saved photo is gone: add a new one");
  }
  return copy;
}

/**
 * **Use my saved photo**: a fresh copy of `phone`'s kept photo for a new booking's row, or 400 when
 * that number keeps none. Only ever the caller's own number's photo: the route passes the verified one.
 */
export async function copyKeptPhoto(deps: { db: Db; uploadsDir: string }, phone: string): Promise<StoredImage> {
  const kept = keptDetailsOf(deps.db, phone);
  if (!kept || kept.imageName === NO_PHOTO) throw BadRequest("there is no saved photo for this number: add one");
  return copyStoredImage(deps.uploadsDir, kept);
}

/**
 * Keeps (or replaces) `phone`'s details after a save with the box ticked: the users row's details and
 * a copy of its photo. The copy it replaces is deleted after the write.
 */
export async function keepDetails(
  deps: { db: Db; uploadsDir: string; now: number },
  input: Omit<KeptDetails, "keptAt" | "lastBookedAt" | "imageName" | "thumbName"> & { photo: StoredImage },
): Promise<void> {
  const copy = await copyStoredImage(deps.uploadsDir, input.photo);
  const { photo: _, ...details } = input;
  const row = { ...details, ...copy, keptAt: deps.now, lastBookedAt: deps.now };
  const before = deps.db.transaction((tx) => {
    const old = keptDetailsOf(tx, input.phone);
    // A One group booking asks no gender: it keeps the one a booking that asked gave before.
    if (row.gender === "unasked" && old) row.gender = old.gender;
    tx.insert(keptDetails).values(row).onConflictDoUpdate({ target: keptDetails.phone, set: row }).run();
    return old;
  });
  if (before) await removeStoredFiles(deps.uploadsDir, [before.imageName, before.thumbName]);
}

/** A booking by `phone` (its details saved): its kept details, if any, count 18 months from now. */
export function touchKeptDetails(db: DbOrTx, phone: string, now: number): void {
  db.update(keptDetails).set({ lastBookedAt: now }).where(eq(keptDetails.phone, phone)).run();
}

/** Deletes `phone`'s kept details; returns the photo names to delete once the transaction commits. */
export function deleteKeptDetails(db: DbOrTx, phone: string): string[] {
  const row = db.delete(keptDetails).where(eq(keptDetails.phone, phone)).returning().get();
  return row ? [row.imageName, row.thumbName] : [];
}

/** The retention job's part: kept details whose number booked nothing for 18 months. */
export function expireKeptDetails(db: Db, now: number): { phones: number; photos: string[] } {
  const rows = db
    .delete(keptDetails)
    .where(lt(keptDetails.lastBookedAt, now - KEPT_DETAILS_IDLE_MS))
    .returning()
    .all();
  return { phones: rows.length, photos: rows.flatMap((r) => [r.imageName, r.thumbName]) };
}
