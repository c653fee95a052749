import { eq } from "drizzle-orm";
import { authenticator } from "otplib";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { type Db, openDatabase } from "../db/client.ts";
import { bookings, type NewEvent, users } from "../db/schema.ts";
import { verifiedPhoneCookie } from "../test/api-harness.ts";
import { ADULT_DATE_OF_BIRTH } from "../test/date-of-birth.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings } from "../test/fixtures.ts";
import { type AppServer, codeFor, devOutbox, ORGANISER_PASSWORD } from "./harness.ts";

// Steps several browser suites take the same way, written once: the organiser's session, a seat
// booked and paid for by a guest who then gets the texted ticket link, and signing in on /me.

/** One event in the suite's database, with a stored picture (test/fixtures.ts insertEvent's defaults and `fields`). */
export async function addEvent(server: AppServer, fields: Partial<NewEvent> = {}) {
  const db = openDatabase(`${server.dataDir}/app.db`);
  try {
    return await insertEvent(db, `${server.dataDir}/uploads`, fields);
  } finally {
    db.$client.close();
  }
}

/** The organiser's session cookie from POST /api/admin-login, for calls a suite makes beside the page. */
export async function organiserCookie(baseUrl: string, password = ORGANISER_PASSWORD): Promise<string> {
  const login = await fetch(`${baseUrl}/api/admin-login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password }),
  });
  expect(login.status).toBe(200);
  return login.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/**
 * A seat held and paid for through the local checkout in the buyer's own browser (the checkout needs
 * its verified phone, signed with the server's SESSION_SECRET). Returns the booking, its ticket code,
 * the text that carried it, the checkout's success URL and the texted ticket link (paths only).
 */
export async function bookAndPay(
  server: AppServer,
  sessionSecret: string,
  eventId: number,
  name: string,
  gender?: "male" | "female",
) {
  const db = openDatabase(`${server.dataDir}/app.db`);
  const held = insertHeldBooking(db, eventId, { name, ...(gender ? { gender } : {}) });
  db.$client.close();
  const cookie = verifiedPhoneCookie({ SESSION_SECRET: sessionSecret }, held.phone);
  const checkout = await fetch(`${server.url}/api/create-checkout-session`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ userID: held.userId, eventID: eventId }),
  });
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  const paid = await fetch(`${server.url}/api/dev/checkout/${sessionId}/pay`, { method: "POST", redirect: "manual" });
  expect(paid.status).toBe(303);
  const successUrl = new URL(paid.headers.get("location") ?? "");
  const text =
    (await devOutbox(server.url)).find((m) => m.to === held.phone && m.body.includes("ticket code"))?.body ?? "";
  const uniqueCode = text.match(/ticket code is ([A-Z2-9]{10})/)?.[1] ?? "";
  const link = new URL(text.match(/https?:\/\/\S+\/tickets\?add=\d+&t=[\w-]+/)?.[0] ?? "");
  expect(uniqueCode).toMatch(/^[A-Z2-9]{10}$/);
  return {
    ...held,
    eventId,
    uniqueCode,
    text,
    successPath: successUrl.pathname + successUrl.search,
    linkPath: link.pathname + link.search,
  };
}

/**
 * Signs in on /me's form (on the page already) as `phone` (+61 E.164), typed as a guest types it
 * (`0412 345 678`) with Enter, the code read from the dev outbox, until the page says who is signed in.
 */
export async function signInOnMe(page: Page, baseUrl: string, phone: string) {
  const typed = phone.replace(/^\+61(\d{3})(\d{3})(\d{3})$/, "0$1 $2 $3");
  await page.getByLabel("Mobile number").fill(typed);
  await page.getByLabel("Mobile number").press("Enter");
  const otp = page.getByLabel("OTP", { exact: true });
  await otp.waitFor();
  await expect.poll(() => codeFor(baseUrl, phone)).toMatch(/^\d{6}$/);
  await otp.fill(await codeFor(baseUrl, phone));
  await otp.press("Enter");
  await page.getByText("Signed in as", { exact: false }).waitFor();
}

/**
 * Opens one of the organiser's (or a host's) tabs and waits until the panel is that tab's. The switch renders in a
 * transition, so until then the old tab's panel, with its own event picker, is still on the page: a
 * pick made in it belonged to the old tab (CI once found User Details empty after such a pick).
 */
export async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name, exact: true }).click();
  await page.getByRole("tabpanel", { name, exact: true }).waitFor();
}

/**
 * Another night paid by the same number, written straight into the database as an earlier booking
 * would have left it (its own users row, as the details form makes one per booking).
 */
export function paidNightOf(
  db: Db,
  night: { phone: string; eventId: number; name: string; uniqueCode: string; paidAt: number; key: string },
) {
  const user = db
    .insert(users)
    .values({
      name: night.name,
      email: "meera@example.com",
      phone: night.phone,
      gender: "female",
      imageName: `${"b".repeat(32)}.jpg`,
      thumbName: `${"b".repeat(32)}-thumb.jpg`,
      dateOfBirth: ADULT_DATE_OF_BIRTH,
    })
    .returning()
    .get();
  db.insert(bookings)
    .values({
      userId: user.id,
      eventId: night.eventId,
      phone: night.phone,
      status: "paid",
      holdExpiresAt: night.paidAt,
      amountCents: 4500,
      paymentIntentId: `pi_local_e2e_${night.key}_${user.id}`,
      uniqueCode: night.uniqueCode,
      paidAt: night.paidAt,
    })
    .run();
  return user;
}

/**
 * A night 30 minutes away with two women and two men paid and checked in at the door (Isha, Tara,
 * Kabir, Neel), for suites that run its rounds; `guest` is Isha.
 */
export async function checkedInNight(server: AppServer, name: string) {
  const db = openDatabase(`${server.dataDir}/app.db`);
  try {
    const event = await insertEvent(db, `${server.dataDir}/uploads`, { name, startsAt: Date.now() + 30 * 60_000 });
    let guest: { userId: number } | undefined;
    for (const [person, gender] of [
      ["Isha", "female"],
      ["Tara", "female"],
      ["Kabir", "male"],
      ["Neel", "male"],
    ] as const) {
      const [p] = insertPaidBookings(db, event.id, 1, { name: person, gender });
      db.update(bookings).set({ checkedInAt: Date.now() }).where(eq(bookings.id, p!.bookingId)).run();
      guest ??= p!;
    }
    return { eventId: event.id, guest: guest! };
  } finally {
    db.$client.close();
  }
}

/**
 * The set-up link (`/admin/setup?t=…`, path and query) of the last email queued for `email`, read
 * from the outbox as the other suites read emails (the scheduler sends it within its 30-second tick).
 */
export function setupLinkFor(server: AppServer, email: string): string {
  const db = openDatabase(`${server.dataDir}/app.db`);
  try {
    const rows = db.$client
      .prepare("select body from outbox_messages where channel = 'email' and \"to\" = ? order by id")
      .all(email) as { body: string }[];
    const url = rows.at(-1)?.body.match(/https?:\/\/\S+\/admin\/setup\?t=[^\s"<>)]+/)?.[0] ?? "";
    expect(url, `a set-up link emailed to ${email}`).toMatch(/\/admin\/setup\?t=/);
    const link = new URL(url);
    return link.pathname + link.search;
  } finally {
    db.$client.close();
  }
}

/**
 * The code an authenticator app holding `otpauthUri`'s key shows `stepsAhead` 30-second steps from
 * now: a sign-in right after a set-up uses the next step's, as a code is good only once.
 */
export function authenticatorCode(otpauthUri: string, stepsAhead = 0): string {
  const secret = new URL(otpauthUri).searchParams.get("secret") ?? "";
  return authenticator.clone({ epoch: Date.now() + stepsAhead * 30_000 }).generate(secret);
}
