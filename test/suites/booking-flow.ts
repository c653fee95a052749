import { linkToken } from "../../api/lib/capability.ts";
import { bookings, users } from "../../db/schema.ts";
import { type BrowserClient, browserClient, type TestServer } from "../api-harness.ts";
import { ADULT_DATE_OF_BIRTH } from "../date-of-birth.ts";

// The whole booking over HTTP, the way the PWA drives it, against any running server that uses the
// console SMS provider and the local checkout (the test harness or a spawned `api/server.ts`).

let seq = Math.floor(Math.random() * 1e7);

/** A fresh Australian mobile in E.164, unique within this process. */
export function newMobile(): string {
  seq++;
  return `+614${String(10_000_000 + (seq % 89_999_999)).padStart(8, "0")}`;
}

type OutboxItem = { to: string; body: string };

/** The last code the console provider texted to `phone`, read from GET /api/dev/outbox. */
export async function lastCode(baseUrl: string, phone: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/dev/outbox`);
  if (response.status !== 200) throw new Error(`GET /api/dev/outbox answered ${response.status}`);
  const items = (await response.json()) as OutboxItem[];
  const code = items
    .filter((m) => m.to === phone)
    .at(-1)
    ?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code was texted to ${phone}`);
  return code;
}

/** A browser that has proved it holds `phone` (send-otp, the code from the outbox, verify-otp). */
export async function verifiedBrowser(baseUrl: string, phone: string): Promise<BrowserClient> {
  const browser = browserClient(baseUrl);
  const sent = await browser.postJson("/api/send-otp", { phone, countryCode: "+61" });
  if (sent.status !== 200) throw new Error(`send-otp answered ${sent.status}: ${await sent.text()}`);
  const verified = await browser.postJson("/api/verify-otp", { phone, otp: await lastCode(baseUrl, phone) });
  if (verified.status !== 200) throw new Error(`verify-otp answered ${verified.status}: ${await verified.text()}`);
  return browser;
}

/**
 * A browser signed in on /me as `phone` (send-otp and verify-otp with `signIn`, the code from the
 * outbox): it holds the guest session cookie `sdt_me`. `browser` signs in an existing browser.
 */
export async function signedInOnMe(
  baseUrl: string,
  phone: string,
  browser: BrowserClient = browserClient(baseUrl),
): Promise<BrowserClient> {
  const sent = await browser.postJson("/api/send-otp", { phone, countryCode: "+61", signIn: true });
  if (sent.status !== 200) throw new Error(`send-otp (signIn) answered ${sent.status}: ${await sent.text()}`);
  const typed = await browser.postJson("/api/verify-otp", { phone, otp: await lastCode(baseUrl, phone), signIn: true });
  if (typed.status !== 200) throw new Error(`verify-otp (signIn) answered ${typed.status}: ${await typed.text()}`);
  return browser;
}

export function detailsForm(input: {
  phone: string;
  eventId: number;
  image: Uint8Array;
  name?: string;
  gender?: "male" | "female";
  /** YYYY-MM-DD; by default someone in their early thirties, inside the fixtures' 25–35. */
  dateOfBirth?: string;
}): FormData {
  const form = new FormData();
  form.append("name", input.name ?? "Asha Patel");
  form.append("email", "asha@example.com");
  form.append("phone", input.phone);
  form.append("gender", input.gender ?? "female");
  form.append("dateOfBirth", input.dateOfBirth ?? ADULT_DATE_OF_BIRTH);
  form.append("eventID", String(input.eventId));
  form.append("eventName", "Test Mixer");
  form.append("image", new Blob([new Uint8Array(input.image)], { type: "image/jpeg" }), "me.jpg");
  return form;
}

/** save-user-details: the hold. Returns the status and, on success, the userID (else the error). */
export async function holdSeat(
  browser: BrowserClient,
  input: { phone: string; eventId: number; image: Uint8Array; gender?: "male" | "female" },
): Promise<{ status: number; userID?: number; error?: string }> {
  const response = await browser.postForm("/api/save-user-details", detailsForm(input));
  const body = (await response.json()) as { userID?: number; error?: string };
  return { status: response.status, userID: body.userID, error: body.error };
}

/**
 * "Proceed to Payment" from `browser`: the verified BrowserClient that held the seat, or the Cookie
 * header of one (verifiedPhoneCookie), since only that browser may start the booking's checkout.
 */
export async function createCheckout(
  baseUrl: string,
  input: { userID: number; eventID: number },
  browser: BrowserClient | string,
): Promise<{ status: number; sessionId?: string; url?: string }> {
  const response = await fromBrowser(
    baseUrl,
    "/api/create-checkout-session",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...input, amount: 1, userEmail: "asha@example.com", eventName: "Test Mixer" }),
    },
    browser,
  );
  const body = (await response.json()) as { sessionId?: string; url?: string };
  return { status: response.status, sessionId: body.sessionId, url: body.url };
}

/** The local checkout's "Pay" button: a form POST answered with 303 to /success. */
export async function pay(baseUrl: string, sessionId: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/dev/checkout/${sessionId}/pay`, { method: "POST", redirect: "manual" });
  await response.body?.cancel();
  return response.status;
}

/** A request from `browser`: a verified BrowserClient, or the Cookie header of one (verifiedPhoneCookie). */
function fromBrowser(baseUrl: string, path: string, init: RequestInit, browser: BrowserClient | string) {
  if (typeof browser !== "string") return browser.request(path, init);
  const headers = new Headers(init.headers);
  headers.set("cookie", browser);
  return fetch(baseUrl + path, { ...init, headers });
}

/** The Cookie header a BrowserClient sends, to make the same requests after a restart. */
export const cookieOf = (browser: BrowserClient) => [...browser.jar].map(([k, v]) => `${k}=${v}`).join("; ");

/** checkout-session from the browser that verified the booking's phone (any other gets 403). */
export async function paymentIntentOf(
  baseUrl: string,
  sessionId: string,
  browser: BrowserClient | string,
): Promise<string | null> {
  const response = await fromBrowser(baseUrl, `/api/checkout-session?session_id=${sessionId}`, {}, browser);
  const body = (await response.json()) as { paymentIntentId?: string | null };
  return body.paymentIntentId ?? null;
}

/** send-confirmation from the browser that verified the booking's phone (any other gets 403). */
export async function sendConfirmation(
  baseUrl: string,
  input: { userID: number; eventID: number; paymentIntentId: string },
  browser: BrowserClient | string,
): Promise<{ status: number; uniqueCode?: string; qrCodeImage?: string }> {
  const response = await fromBrowser(
    baseUrl,
    "/api/send-confirmation",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...input, userEmail: "asha@example.com", eventName: "Test Mixer", userPhone: "" }),
    },
    browser,
  );
  const body = (await response.json()) as { uniqueCode?: string; qrCodeImage?: string };
  return { status: response.status, uniqueCode: body.uniqueCode, qrCodeImage: body.qrCodeImage };
}

/**
 * A paid seat of `phone` at `eventId`, as the booking flow leaves it (paid a day ago, its payment's id
 * tagged `pi_local_{tag}_…`), written straight to the database for the suites about what comes after.
 */
export function insertPaidSeat(server: TestServer, eventId: number, phone: string, amountCents: number, tag: string) {
  const { db } = server.deps;
  const user = db
    .insert(users)
    .values({
      name: "Casey",
      email: "casey@example.com",
      phone,
      gender: "female",
      imageName: `${"a".repeat(32)}.jpg`,
      thumbName: `${"a".repeat(32)}-thumb.jpg`,
      dateOfBirth: ADULT_DATE_OF_BIRTH,
    })
    .returning()
    .get();
  const booking = db
    .insert(bookings)
    .values({
      userId: user.id,
      eventId,
      phone,
      status: "paid",
      holdExpiresAt: server.deps.now(),
      amountCents,
      paymentIntentId: `pi_local_${tag}_${user.id}_${Math.random().toString(36).slice(2)}`,
      uniqueCode: null,
      paidAt: server.deps.now() - 24 * 3_600_000,
    })
    .returning()
    .get();
  return { eventID: eventId, userID: user.id, bookingId: booking.id, paymentIntentId: booking.paymentIntentId ?? "" };
}

/** What `POST /api/ticket-status` says of a booking's ticket, asked with its own signed link. */
export async function ticketStatusOf(server: TestServer, bookingId: number): Promise<string> {
  const reply = await fetch(`${server.url}/api/ticket-status`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ bookingId, t: linkToken(server.deps.env, "ticket", bookingId) }),
  });
  return ((await reply.json()) as { status: string }).status;
}
