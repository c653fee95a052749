import { join } from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { feedbackToken } from "../api/lib/capability.ts";
import { storeImage } from "../api/services/images.ts";
import { openDatabase } from "../db/client.ts";
import { events, users } from "../db/schema.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";

const SESSION_SECRET = "bench-secret-bench-secret-bench-secret-00";

/**
 * A 12-megapixel "camera photo": a face-sized blob, background shapes and sensor grain, so it has
 * the detail and compresses like a real portrait (about 4 MB as a JPEG).
 */
async function cameraPhoto(seed: number): Promise<Buffer> {
  const width = 4032;
  const height = 3024;
  const shapes = Array.from({ length: 40 }, (_, i) => {
    const x = (i * 977 + seed * 131) % width;
    const y = (i * 613 + seed * 71) % height;
    const r = 80 + ((i * 37 + seed * 13) % 420);
    const hue = (i * 29 + seed * 47) % 360;
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(${hue},55%,${35 + (i % 5) * 10}%)" opacity="0.7"/>`;
  }).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${seed * 30},40%,70%)"/><stop offset="1" stop-color="hsl(${seed * 30 + 120},40%,30%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes}
    <ellipse cx="2016" cy="1400" rx="700" ry="900" fill="hsl(25,45%,${55 + seed}%)"/>
    <ellipse cx="1780" cy="1250" rx="90" ry="60" fill="#2b1d14"/><ellipse cx="2250" cy="1250" rx="90" ry="60" fill="#2b1d14"/>
    <path d="M1800 1750 Q2016 1900 2230 1750" stroke="#7a2e2e" stroke-width="40" fill="none"/>
  </svg>`;
  const grain = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 128, g: 128, b: 128 },
      noise: { type: "gaussian", mean: 128, sigma: 22 },
    },
  })
    .png()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, blend: "soft-light" }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

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
