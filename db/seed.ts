import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { utcToWallClock } from "../common/time-zone.ts";
import { wallClockToUtc } from "../common/venue-time-input.ts";
import type { Db } from "./client.ts";
import { events, type NewEvent } from "./schema.ts";

const imagesDir = join(dirname(fileURLToPath(import.meta.url)), "seed-images");
const DAY = 86_400_000;

type DemoEvent = Omit<NewEvent, "imageName" | "startsAt"> & {
  image: string;
  inDays: number;
  /** On the venue's clock: evenings in their own cities, whatever the season. */
  localTime: { hour: number; minute: number };
};

// Mixed prices, ages and sizes, so the home page shows its states on a fresh start.
const demo: DemoEvent[] = [
  {
    name: "Sydney Harbour Mixer",
    image: "sydney-harbour.jpg",
    inDays: 7,
    timeZone: "Australia/Sydney",
    localTime: { hour: 19, minute: 0 },
    address: "Level 2, 10 Circular Quay W, The Rocks NSW 2000",
    priceCents: 4900,
    durationHours: 2,
    fromAge: 25,
    toAge: 35,
    totalSeats: 30,
  },
  {
    name: "Melbourne Laneway Evening",
    image: "melbourne-laneway.jpg",
    inDays: 12,
    timeZone: "Australia/Melbourne",
    localTime: { hour: 19, minute: 30 },
    address: "5 Degraves St, Melbourne VIC 3000",
    priceCents: 3900,
    durationHours: 2.5,
    fromAge: 28,
    toAge: 40,
    totalSeats: 24,
  },
  {
    name: "Brisbane Riverside Brunch",
    image: "brisbane-riverside.jpg",
    inDays: 18,
    timeZone: "Australia/Brisbane",
    localTime: { hour: 11, minute: 0 },
    address: "1 Eagle St, Brisbane City QLD 4000",
    priceCents: 3500,
    durationHours: 2,
    fromAge: 22,
    toAge: 30,
    totalSeats: 20,
  },
  {
    name: "Perth Sunset Social",
    image: "perth-sunset.jpg",
    inDays: 25,
    timeZone: "Australia/Perth",
    localTime: { hour: 18, minute: 0 },
    address: "Elizabeth Quay, Perth WA 6000",
    priceCents: 5500,
    durationHours: 3,
    fromAge: 30,
    toAge: 45,
    totalSeats: 16,
  },
  {
    name: "Adelaide Garden Party",
    image: "adelaide-garden.jpg",
    inDays: 33,
    timeZone: "Australia/Adelaide",
    localTime: { hour: 17, minute: 30 },
    address: "North Terrace, Adelaide SA 5000",
    priceCents: 2900,
    durationHours: 2,
    fromAge: 35,
    toAge: 50,
    totalSeats: 20,
  },
];

/** Stores a picture as an upload would be stored (the API's image service), returning its file name. */
export type StorePicture = (bytes: Uint8Array) => Promise<{ imageName: string }>;

/**
 * Adds the demo events to an empty database; a database with any event is left alone. The caller
 * stores the pictures, so the database layer needs nothing of the API's image code.
 */
export async function seedDemoEvents(db: Db, storePicture: StorePicture, now = Date.now()): Promise<number> {
  if (db.select({ id: events.id }).from(events).limit(1).all().length > 0) return 0;
  const rows: NewEvent[] = [];
  for (const { image, inDays, localTime, ...event } of demo) {
    const { imageName } = await storePicture(await readFile(join(imagesDir, image)));
    const date = utcToWallClock(now + inDays * DAY, event.timeZone).date;
    rows.push({ ...event, imageName, startsAt: wallClockToUtc({ date, ...localTime }, event.timeZone) });
  }
  db.insert(events).values(rows).run();
  return rows.length;
}
