import type { EventUpdateFields, NewEventFields } from "../../common/event-fields.ts";
import type { Db } from "../../db/client.ts";
import { MAX_IMAGE_BYTES, removeStoredImage, STORED_NAME, storeImage, thumbnailName } from "../booking/images.ts";
import { type OfferDeps, offerFreedSeatsNow } from "../booking/waitlist-offers.ts";
import type { Env } from "../env.ts";
import { BadRequest, TooLarge } from "../lib/errors.ts";
import { type PassChangeDeps, sendWalletUpdatesSoon, type WalletSendDeps } from "../wallet/pass-changes.ts";
import { createEvent, replaceEventImage, updateEvent } from "./admin-events.ts";

/**
 * The organiser's writes to an event, with what each brings along: a new picture stored first and
 * removed again if the write is refused, the replaced picture removed once the write committed, and
 * seats added offered at once to whoever waits for them (decision 015).
 */

type Deps = OfferDeps & { db: Db; env: Pick<Env, "UPLOADS_DIR" | "EVENT_TIME_ZONE"> & OfferDeps["env"] };

/** An uploaded event picture, checked (size, then its bytes) and stored. */
async function storeEventPicture(uploadsDir: string, file: File) {
  if (file.size === 0) throw BadRequest("Choose a picture for the event.");
  if (file.size > MAX_IMAGE_BYTES) throw TooLarge("The picture must be at most 5 MB.");
  return storeImage(uploadsDir, new Uint8Array(await file.arrayBuffer()));
}

export async function addEvent(deps: Deps, fields: NewEventFields): Promise<{ id: number }> {
  const { image, timeZone, ...event } = fields;
  const stored = await storeEventPicture(deps.env.UPLOADS_DIR, image);
  try {
    return createEvent(
      deps.db,
      { ...event, timeZone: timeZone ?? deps.env.EVENT_TIME_ZONE, imageName: stored.imageName },
      deps.now(),
    );
  } catch (error) {
    // createEvent refuses a past date or crossed ages: the picture must not stay behind.
    await removeStoredImage(deps.env.UPLOADS_DIR, stored);
    throw error;
  }
}

export function editEvent(
  deps: Deps & { env: PassChangeDeps["env"] } & Pick<PassChangeDeps, "wallet"> & WalletSendDeps,
  fields: EventUpdateFields,
): void {
  updateEvent(deps.db, fields, deps.now(), deps);
  // A moved or renamed night's passes: pushed and PATCHed now, not at the next tick.
  sendWalletUpdatesSoon(deps);
  // Seats added (overall or for a gender) go at once to whoever waits for them.
  offerFreedSeatsNow(deps, fields.id);
}

export async function replaceEventPicture(deps: Deps, eventId: number, file: File): Promise<{ imageName: string }> {
  const dir = deps.env.UPLOADS_DIR;
  const stored = await storeEventPicture(dir, file);
  let previous: string;
  try {
    ({ previous } = replaceEventImage(deps.db, eventId, stored.imageName));
  } catch (error) {
    await removeStoredImage(dir, stored);
    throw error;
  }
  // Names are random and one event's own, so nothing else points at the old picture. A phone
  // showing a cached list meanwhile gets the new name on its next revalidation.
  if (STORED_NAME.test(previous)) {
    await removeStoredImage(dir, { imageName: previous, thumbName: thumbnailName(previous) });
  }
  return { imageName: stored.imageName };
}
