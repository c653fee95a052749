import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { newStoredImage, prepareUploadsDir, storeImage, UPLOAD_FILE_MODE } from "../api/booking/images.ts";
import type { Db } from "../db/client.ts";
import { bookings, events, type NewEvent, type PersonGender, users, type WantsToMeet } from "../db/schema.ts";

import { ADULT_DATE_OF_BIRTH } from "./date-of-birth.ts";

const DAY = 86_400_000;

/** A real image of the given format and size, made on the spot. */
export async function makeImage(
  format: "png" | "jpeg" | "webp" = "jpeg",
  width = 640,
  height = 480,
  color = { r: 200, g: 60, b: 110 },
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .toFormat(format)
    .toBuffer();
}

/**
 * The default event picture, stored by storeImage once per process and written again, under a new
 * name of the same form, for each event that takes it: storing it anew (mozjpeg, the attention crop)
 * cost about 50 ms of CPU per event on the two cores the suites share. Each copy holds the bytes
 * storeImage wrote, with its file mode.
 */
let defaultPicture: Promise<{ display: Buffer; thumb: Buffer }> | undefined;
async function storeDefaultPicture(uploadsDir: string): Promise<string> {
  defaultPicture ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), "sdt-picture-"));
    try {
      const { imageName, thumbName } = await storeImage(dir, await makeImage());
      const [display, thumb] = await Promise.all([readFile(join(dir, imageName)), readFile(join(dir, thumbName))]);
      return { display, thumb };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  const { display, thumb } = await defaultPicture;
  const { imageName, thumbName } = newStoredImage();
  await prepareUploadsDir(uploadsDir);
  await writeFile(join(uploadsDir, imageName), display, { mode: UPLOAD_FILE_MODE });
  await writeFile(join(uploadsDir, thumbName), thumb, { mode: UPLOAD_FILE_MODE });
  return imageName;
}

/** Inserts an event straight into the database (the admin API has its own tests). */
export async function insertEvent(db: Db, uploadsDir: string, overrides: Partial<NewEvent> = {}) {
  const imageName = overrides.imageName ?? (await storeDefaultPicture(uploadsDir));
  const row = db
    .insert(events)
    .values({
      name: "Test Mixer",
      address: "1 George St, Sydney NSW 2000",
      startsAt: Date.now() + 7 * DAY,
      priceCents: 4500,
      durationHours: 2,
      fromAge: 25,
      toAge: 35,
      totalSeats: 10,
      timeZone: "Australia/Sydney",
      ...overrides,
      imageName,
    })
    .returning()
    .get();
  return row;
}

// One sequence for every fixture attendee, from a random start per test process, so held and paid
// fixtures never share a phone (one paid seat per phone per event is a rule the app enforces).
let attendeeCounter = Math.floor(Math.random() * 50_000_000);

/** An attendee row with a unique Australian mobile, as the details form would leave it. */
export function insertAttendee(db: Db, attendee: { name?: string; email?: string; gender?: "male" | "female" } = {}) {
  attendeeCounter++;
  const phone = `+614${String(attendeeCounter % 100_000_000).padStart(8, "0")}`;
  return db
    .insert(users)
    .values({
      name: attendee.name ?? `Attendee ${attendeeCounter}`,
      email: attendee.email ?? `a${attendeeCounter}@example.com`,
      phone,
      gender: attendee.gender ?? (attendeeCounter % 2 ? "female" : "male"),
      imageName: `${"0".repeat(32)}.jpg`,
      thumbName: `${"0".repeat(32)}-thumb.jpg`,
      dateOfBirth: ADULT_DATE_OF_BIRTH,
    })
    .returning()
    .get();
}

/**
 * Paid guests of a One group or Mixed night, checked in at the door one millisecond apart from
 * `checkedInAt` in the order given (the order the planners seat them in), each with the gender and
 * "would like to meet" their booking stored (One group: `unasked`, none).
 */
export function insertCheckedInGuests(
  db: Db,
  eventId: number,
  guests: readonly { name?: string; gender?: PersonGender; wantsToMeet?: WantsToMeet | null }[],
  checkedInAt: number,
) {
  return guests.map((g, i) => {
    const [p] = insertPaidBookings(db, eventId, 1, { name: g.name });
    db.update(users)
      .set({ gender: g.gender ?? "unasked", wantsToMeet: g.wantsToMeet ?? null })
      .where(eq(users.id, p!.userId))
      .run();
    db.update(bookings)
      .set({ checkedInAt: checkedInAt + i })
      .where(eq(bookings.id, p!.bookingId))
      .run();
    return p!;
  });
}

/** Adds `count` paid bookings (each with its own attendee) to an event. */
export function insertPaidBookings(
  db: Db,
  eventId: number,
  count: number,
  attendee: { gender?: "male" | "female"; name?: string; paidAt?: number } = {},
) {
  const ids: { userId: number; bookingId: number; phone: string }[] = [];
  for (let i = 0; i < count; i++) {
    const user = insertAttendee(db, { name: attendee.name, gender: attendee.gender ?? (i % 2 ? "female" : "male") });
    const booking = db
      .insert(bookings)
      .values({
        userId: user.id,
        eventId,
        phone: user.phone,
        status: "paid",
        holdExpiresAt: Date.now(),
        amountCents: 4500,
        paymentIntentId: `pi_fixture_${user.id}_${Math.random().toString(36).slice(2)}`,
        paidAt: attendee.paidAt ?? Date.now(),
      })
      .returning()
      .get();
    ids.push({ userId: user.id, bookingId: booking.id, phone: user.phone });
  }
  return ids;
}

/**
 * A seat held the way save-user-details leaves it, so payment suites can start from "Proceed to
 * Payment" without the OTP steps.
 */
export function insertHeldBooking(
  db: Db,
  eventId: number,
  options: {
    holdMs?: number;
    now?: number;
    name?: string;
    email?: string;
    amountCents?: number;
    gender?: "male" | "female";
  } = {},
) {
  const now = options.now ?? Date.now();
  const user = insertAttendee(db, { name: options.name, email: options.email, gender: options.gender });
  // The price a hold fixes is the event's (docs/decisions/023-prices-and-ages.md); the checkout charges it.
  const event = db.select({ priceCents: events.priceCents }).from(events).where(eq(events.id, eventId)).get();
  const booking = db
    .insert(bookings)
    .values({
      userId: user.id,
      eventId,
      phone: user.phone,
      status: "held",
      holdExpiresAt: now + (options.holdMs ?? 30 * 60_000),
      // As a details save records it: a checkout's stretch of the hold is capped from here (decision 017).
      heldSince: now,
      amountCents: options.amountCents ?? event?.priceCents ?? 4500,
    })
    .returning()
    .get();
  return { userId: user.id, bookingId: booking.id, phone: user.phone, email: user.email, name: user.name };
}
