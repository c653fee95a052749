import { join } from "node:path";
import { eq } from "drizzle-orm";
import { storeImage } from "../api/booking/images.ts";
import { feedbackToken } from "../api/lib/capability.ts";
import { openDatabase } from "../db/client.ts";
import { events, users } from "../db/schema.ts";
import { cameraPhoto } from "../test/camera-photo.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";

const SESSION_SECRET = "bench-secret-bench-secret-bench-secret-00";

/**
 * One attendee opening the partner page of an event with 12 partners who all uploaded camera-sized
 * photos: the bytes of the participants call and of every photo it shows.
 */
export async function measurePartnersPage(appUrl: string, dataDir: string) {
  const db = openDatabase(join(dataDir, "app.db"));
  const uploads = join(dataDir, "uploads");
  const event = await insertEvent(db, uploads, { totalSeats: 40, name: "Bench Night" });
  db.update(events).set({ status: "started" }).where(eq(events.id, event.id)).run();
  const [viewer] = insertPaidBookings(db, event.id, 1, { gender: "female" });
  const partners = insertPaidBookings(db, event.id, 12, { gender: "male" });
  let uploadBytes = 0;
  for (const [i, p] of partners.entries()) {
    const photo = await cameraPhoto(i);
    uploadBytes = Math.max(uploadBytes, photo.length);
    const stored = await storeImage(uploads, photo);
    db.update(users).set(stored).where(eq(users.id, p.userId)).run();
  }
  db.$client.close();

  const token = feedbackToken({ SESSION_SECRET }, "start", viewer!.userId, event.id);
  const response = await fetch(`${appUrl}/api/get-participants`, {
    method: "POST",
    headers: { "content-type": "application/json", "accept-encoding": "gzip" },
    body: JSON.stringify({ userID: viewer!.userId, eventID: event.id, token }),
  });
  const json = await response.text();
  if (!response.ok) throw new Error(`get-participants answered ${response.status}: ${json}`);
  const { participants } = JSON.parse(json) as { participants: { image_name: string }[] };
  let totalBytes = Buffer.byteLength(json);
  let largestPhoto = 0;
  for (const p of participants) {
    const bytes = (await (await fetch(`${appUrl}/api/images/${p.image_name}`)).arrayBuffer()).byteLength;
    totalBytes += bytes;
    largestPhoto = Math.max(largestPhoto, bytes);
  }
  return { count: participants.length, totalBytes, largestPhoto, uploadBytes };
}
