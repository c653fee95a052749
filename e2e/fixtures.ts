import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { test as base } from "vitest";
import { storeImage } from "../api/booking/images.ts";
import { openDatabase } from "../db/client.ts";
import { bookings, type NewEvent, users } from "../db/schema.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../test/fixtures.ts";
import {
  type AppServer,
  desktop,
  launchBrowser,
  newContext,
  phone,
  signInAsOrganiser,
  startAppServer,
} from "./harness.ts";

// What every browser suite needs, set up once and torn down after itself (docs/decisions/048-browser-fixtures.md):
// a suite calls `browserSuite({ ... })` once at the top of its file and takes `server`, `browser`,
// `organiser`, `guestPhone` and `night` from the test context or from `test.beforeAll`.

/** The guests of a checked-in night: name and gender, in the order their bookings are made. */
export type NightGuest = readonly [name: string, gender: "male" | "female"];

export type SuiteOptions = {
  /**
   * Added to the server's environment (startAppServer's defaults, and `SEED_DEMO: "0"`); a function
   * when a value is only known at start-up (a port chosen just before).
   */
  serverEnv?: Record<string, string> | (() => Promise<Record<string, string>>);
  /** Added to Chromium's flags (launchBrowser). */
  browserArgs?: string[];
  /**
   * The `guestPhone` fixture keeps its service worker, which newContext turns off: for a suite whose
   * guest goes offline.
   */
  serviceWorker?: boolean;
  /** The night the `night` fixture builds: its event's fields and its guests. */
  night?: { event?: Partial<NewEvent>; guests?: readonly NightGuest[] };
};

/** A browser context with one page open, and the errors its pages threw (see newContext). */
export type Screen = { context: BrowserContext; page: Page; pageErrors: string[] };

export type CheckedInNight = {
  eventId: number;
  /** The venue's time zone. */
  timeZone: string;
  /** Each guest by name: booked, paid for a day ago, with a photo, checked in at the door. */
  people: Record<string, { userId: number; bookingId: number; phone: string }>;
};

const MINUTE = 60_000;

const defaultGuests: readonly NightGuest[] = [
  ["Anika Rao", "female"],
  ["Priya Nair", "female"],
  ["Dev Kumar", "male"],
  ["Arjun Shah", "male"],
];

/**
 * An event starting in half an hour whose guests all booked, paid, gave a photo and were checked in:
 * where the Rounds tab and the guests' phones start a night.
 */
export async function checkInNight(server: AppServer, options: SuiteOptions["night"] = {}): Promise<CheckedInNight> {
  const db = openDatabase(`${server.dataDir}/app.db`);
  try {
    const uploads = `${server.dataDir}/uploads`;
    const event = await insertEvent(db, uploads, {
      name: "Rounds Night",
      startsAt: Date.now() + 30 * MINUTE,
      ...options.event,
    });
    const people: CheckedInNight["people"] = {};
    for (const [i, [name, gender]] of (options.guests ?? defaultGuests).entries()) {
      const [p] = insertPaidBookings(db, event.id, 1, { name, gender, paidAt: Date.now() - 24 * 60 * MINUTE });
      const photo = await storeImage(uploads, await makeImage("jpeg", 400, 400, { r: 60 + i * 40, g: 90, b: 150 }));
      db.update(users).set(photo).where(eq(users.id, p!.userId)).run();
      db.update(bookings).set({ checkedInAt: Date.now() }).where(eq(bookings.id, p!.bookingId)).run();
      people[name] = p!;
    }
    return { eventId: event.id, timeZone: event.timeZone, people };
  } finally {
    db.$client.close();
  }
}

/**
 * The fixtures, with the suite's options as file-scoped values (`suiteOptions`): `server` and
 * `browser` start once per file, at the first hook or test that asks for them, and stop after the
 * file's last test (after its own afterAll hooks). `server.stop()` also fails the file when a page met
 * a reply that differs from its declared schema.
 */
export const test = base
  .extend("suiteOptions", { scope: "file" }, {} as SuiteOptions)
  .extend("server", { scope: "file" }, async ({ suiteOptions }, { onCleanup }) => {
    const { serverEnv = {} } = suiteOptions;
    const env = typeof serverEnv === "function" ? await serverEnv() : serverEnv;
    const server = await startAppServer({ SEED_DEMO: "0", ...env });
    onCleanup(() => server.stop());
    return server;
  })
  /**
   * One Chromium per worker, lent to each file that adds no flags of its own: a launch cost about
   * 0.7 s of CPU, once per file before (docs/decisions/061-ci-time.md).
   */
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's needs from this pattern, and this one needs none.
  .extend("workerBrowser", { scope: "worker" }, async ({}, { onCleanup }) => {
    const browser: Browser = await launchBrowser();
    onCleanup(() => browser.close());
    return browser;
  })
  .extend("browser", { scope: "file" }, async ({ suiteOptions, workerBrowser }, { onCleanup }) => {
    const { browserArgs = [] } = suiteOptions;
    if (browserArgs.length > 0) {
      const own: Browser = await launchBrowser(browserArgs);
      onCleanup(() => own.close());
      return own;
    }
    // The file leaves the browser as it found it: whatever context it left open closes with it, as
    // when each file closed a browser of its own.
    const before = new Set(workerBrowser.contexts());
    onCleanup(async () => {
      await Promise.all(workerBrowser.contexts().map((context) => (before.has(context) ? null : context.close())));
    });
    return workerBrowser;
  })
  .extend("night", { scope: "file" }, async ({ server, suiteOptions }) => checkInNight(server, suiteOptions.night))
  /**
   * A desktop page (1366 px) signed in as the organiser through the login dialog on /admin, with its
   * page errors collected; closed after the test.
   */
  .extend("organiser", async ({ server, browser }, { onCleanup }): Promise<Screen> => {
    const { context, pageErrors } = await newContext(browser, server.url, desktop);
    onCleanup(() => context.close());
    const page = await context.newPage();
    await signInAsOrganiser(page);
    return { context, page, pageErrors };
  })
  /** A guest's phone (390 px, touch) with its page errors collected; closed after the test. */
  .extend("guestPhone", async ({ server, browser, suiteOptions }, { onCleanup }): Promise<Screen> => {
    const device = suiteOptions.serviceWorker ? { ...phone, serviceWorkers: "allow" as const } : phone;
    const { context, pageErrors } = await newContext(browser, server.url, device);
    onCleanup(() => context.close());
    return { context, page: await context.newPage(), pageErrors };
  });

/**
 * The fixtures for one suite's file: its server's environment, Chromium's extra flags, its night.
 * Call it once at the top level of the file (file-scoped values cannot change inside a describe).
 */
export function browserSuite(options: SuiteOptions = {}) {
  return test.extend("suiteOptions", { scope: "file" }, options);
}
