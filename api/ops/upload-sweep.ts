import { chmod, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { type AnyColumn, and, eq, gt, inArray, lte, ne, not, notExists, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { keptDetails } from "../../db/access-schema.ts";
import type { Db } from "../../db/client.ts";
import { bookings, checkoutSessions, events, users } from "../../db/schema.ts";
import {
  dropImageVariants,
  NO_PHOTO,
  PARTIAL_NAME,
  prepareUploadsDir,
  STORED_NAME,
  thumbnailName,
  UPLOAD_FILE_MODE,
} from "../booking/images.ts";

const HOUR = 3_600_000;

/** A file nothing names is deleted once it is this old, so an upload still being saved is never touched. */
export const ORPHAN_AGE_MS = HOUR;
/** A hold's photo is kept this long after the hold ran out or was released. */
export const RELEASED_PHOTO_AGE_MS = HOUR;
/**
 * Stripe retries a webhook for up to three days, so a payment made just before its checkout expired
 * can turn an expired hold into a paid seat that late: such a hold keeps its photo meanwhile.
 */
export const LATE_PAYMENT_MS = 72 * HOUR;

/** The bookings table or an alias of it. */
type BookingColumns = { id: AnyColumn; status: AnyColumn; holdExpiresAt: AnyColumn };

/** SQL: booking `b` can no longer become a seat, so nobody will ever look at its attendee's photo. */
function photoUnneeded(db: Db, b: BookingColumns, now: number): SQL {
  return and(
    inArray(b.status, ["held", "released"]),
    lte(b.holdExpiresAt, now - RELEASED_PHOTO_AGE_MS),
    notExists(
      db
        .select({ id: checkoutSessions.id })
        .from(checkoutSessions)
        .where(and(eq(checkoutSessions.bookingId, b.id), gt(checkoutSessions.expiresAt, now - LATE_PAYMENT_MS))),
    ),
  ) as SQL;
}

/**
 * Lets go of the photos of holds that ran out or were released more than an hour ago: their users
 * rows name NO_PHOTO from then on. Paid and refunded bookings keep theirs (the organiser's lists
 * show them) until retention erases the event. A photo shared with a row that still needs it (a
 * phone's retry points its released rows at its newest photo) is kept for that row.
 */
function releaseUnneededPhotos(db: Db, now: number): number {
  const other = alias(users, "other_user");
  const otherBooking = alias(bookings, "other_booking");
  return db.transaction(
    (tx) => {
      const rows = tx
        .select({ id: users.id })
        .from(users)
        .innerJoin(bookings, eq(bookings.userId, users.id))
        .where(
          and(
            ne(users.imageName, NO_PHOTO),
            photoUnneeded(db, bookings, now),
            notExists(
              tx
                .select({ id: other.id })
                .from(other)
                .innerJoin(otherBooking, eq(otherBooking.userId, other.id))
                .where(
                  and(
                    eq(other.phone, users.phone),
                    eq(other.imageName, users.imageName),
                    ne(other.id, users.id),
                    not(photoUnneeded(db, otherBooking, now)),
                  ),
                ),
            ),
          ),
        )
        .all();
      if (rows.length === 0) return 0;
      tx.update(users)
        .set({ imageName: NO_PHOTO, thumbName: NO_PHOTO })
        .where(
          inArray(
            users.id,
            rows.map((r) => r.id),
          ),
        )
        .run();
      return rows.length;
    },
    { behavior: "immediate" },
  );
}

/** Every stored name a row still names, with the thumbnail beside each photo (the admin pages derive it). */
function namedFiles(db: Db): Set<string> {
  const named = new Set<string>();
  for (const row of db.select({ imageName: users.imageName, thumbName: users.thumbName }).from(users).all()) {
    named.add(row.imageName).add(row.thumbName).add(thumbnailName(row.imageName));
  }
  // Kept details' own photo copies (docs/decisions/029-kept-details.md).
  for (const row of db
    .select({ imageName: keptDetails.imageName, thumbName: keptDetails.thumbName })
    .from(keptDetails)
    .all()) {
    named.add(row.imageName).add(row.thumbName);
  }
  for (const row of db.select({ imageName: events.imageName }).from(events).all()) {
    named.add(row.imageName).add(thumbnailName(row.imageName));
  }
  return named;
}

// Folders whose every file was narrowed to 0600 by this process: done once, on the first sweep.
const narrowed = new Set<string>();

/**
 * The upload sweep, a background job (api/ops/jobs.ts): releases the photos no booking needs
 * any more, then deletes every stored file no row names that is over an hour old. Files are only
 * ever deleted after the rows stopped naming them, so a crash at any point leaves orphans for the
 * next sweep, never a row naming a missing file. Running it again changes nothing.
 */
export async function sweepUploads(
  deps: { db: Db; uploadsDir: string },
  now: number,
): Promise<{ photosReleased: number; filesRemoved: string[] }> {
  const photosReleased = releaseUnneededPhotos(deps.db, now);
  let entries: string[];
  try {
    entries = await readdir(deps.uploadsDir);
  } catch {
    return { photosReleased, filesRemoved: [] };
  }
  await prepareUploadsDir(deps.uploadsDir);
  const narrowAll = !narrowed.has(deps.uploadsDir);
  // Read after the directory listing: a file written and named meanwhile is simply too young to go.
  const named = namedFiles(deps.db);
  const filesRemoved: string[] = [];
  for (const name of entries) {
    const stored = STORED_NAME.test(name) || PARTIAL_NAME.test(name);
    if (!stored || (named.has(name) && !narrowAll)) continue;
    const path = join(deps.uploadsDir, name);
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(path);
    } catch {
      continue; // deleted meanwhile
    }
    if (!info.isFile()) continue;
    if (!named.has(name) && info.mtimeMs <= now - ORPHAN_AGE_MS) {
      await rm(path, { force: true });
      dropImageVariants(deps.uploadsDir, name);
      filesRemoved.push(name);
    } else if ((info.mode & 0o077) !== 0) {
      await chmod(path, UPLOAD_FILE_MODE);
    }
  }
  if (narrowAll) narrowed.add(deps.uploadsDir);
  return { photosReleased, filesRemoved };
}
