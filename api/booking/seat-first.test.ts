import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, users } from "../../db/schema.ts";
import { type BrowserClient, suiteTestServer, type TestServer, verifiedPhoneBrowser } from "../../test/api-harness.ts";
import { ADULT_DATE_OF_BIRTH } from "../../test/date-of-birth.ts";
import { insertEvent, insertHeldBooking, makeImage } from "../../test/fixtures.ts";
import { giveBackSeatsWithoutPhoto } from "./holds.ts";
import { NO_PHOTO } from "./images.ts";

// The seat first, the photo after (docs/decisions/007-scale.md, issue 38): a first save holds its seat
// from the fields sent before the photo, refuses a full event before the photo arrives, and gives the
// seat back when the photo fails. Uploads here are streamed and held open, so what the server does
// before the photo has arrived can be seen; nothing is timed.

let phoneSeq = Math.floor(Math.random() * 1e7);
const newPhone = () => `+614${String(10_000_000 + (++phoneSeq % 89_999_999))}`;

const BOUNDARY = "----seat-first-boundary";
const fields = (phone: string, eventId: number, gender = "female") => ({
  name: "Priya Sharma",
  email: "priya@example.com",
  phone,
  gender,
  dateOfBirth: ADULT_DATE_OF_BIRTH,
  eventID: String(eventId),
  eventName: "Test Mixer",
});
/** The form as a browser sends it: the text fields, then the photo's part, whose bytes follow. */
const formHead = (values: Record<string, string>) =>
  Buffer.from(
    Object.entries(values)
      .map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join("") +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="me.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
const formTail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/**
 * A details form whose upload stops after the text fields and the first bytes of the photo, until
 * `finish` sends the rest: a phone on a slow network, caught halfway through its photo.
 */
function heldOpenUpload(browser: BrowserClient, values: Record<string, string>, photo: Buffer) {
  let finish!: () => void;
  const rest = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new Uint8Array(Buffer.concat([formHead(values), photo.subarray(0, 1024)])));
      await rest;
      controller.enqueue(new Uint8Array(Buffer.concat([photo.subarray(1024), formTail])));
      controller.close();
    },
  });
  const response = browser.request("/api/save-user-details", {
    method: "POST",
    // As a browser sends a form: with its length, so the body is read as it streams in.
    headers: {
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      "content-length": String(formHead(values).length + photo.length + formTail.length),
    },
    body,
    duplex: "half",
  } as RequestInit);
  return { response, finish };
}

function postForm(browser: BrowserClient, values: Record<string, string>, photo: Buffer) {
  return browser.request("/api/save-user-details", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body: new Uint8Array(Buffer.concat([formHead(values), photo, formTail])),
  });
}

const bookingOf = (server: TestServer, phone: string, eventId: number) =>
  server.deps.db
    .select({ status: bookings.status, userId: bookings.userId, imageName: users.imageName })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.phone, phone), eq(bookings.eventId, eventId)))
    .all();

/** Waits until the server has held `phone`'s seat (it does so once the fields before the photo arrive). */
async function heldSeatOf(server: TestServer, phone: string, eventId: number) {
  for (let i = 0; i < 400; i++) {
    const held = bookingOf(server, phone, eventId).find((b) => b.status === "held");
    if (held) return held;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no seat was held for ${phone} while its photo was on its way`);
}

let jpeg: Buffer;
beforeAll(async () => {
  jpeg = await makeImage("jpeg", 800, 600);
});

describe("the seat first, the photo after", () => {
  const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000" } });

  it("holds the seat before the photo has arrived, and the next buyer hears sold out at once", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 1 });
    const first = newPhone();
    const upload = heldOpenUpload(verifiedPhoneBrowser(server, first), fields(first, event.id), jpeg);
    await heldSeatOf(server, first, event.id);

    // The second buyer's broken photo is never looked at: the answer is the spec's sold out.
    const second = newPhone();
    const late = await postForm(verifiedPhoneBrowser(server, second), fields(second, event.id), randomBytes(5000));
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: "sold_out" });

    upload.finish();
    const done = await upload.response;
    expect(done.status).toBe(200);
    await server.photosStored();
    const [booking] = bookingOf(server, first, event.id);
    expect(booking?.status).toBe("held");
    expect(booking?.imageName).toMatch(/^[a-f0-9]{32}\.jpg$/);
  });

  it("refuses a full event before the photo has been received", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 1 });
    const first = newPhone();
    expect((await postForm(verifiedPhoneBrowser(server, first), fields(first, event.id), jpeg)).status).toBe(200);

    // The answer comes while the rest of the photo is still held back by the phone.
    const second = newPhone();
    const upload = heldOpenUpload(verifiedPhoneBrowser(server, second), fields(second, event.id), jpeg);
    const refused = await upload.response;
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "sold_out" });
    upload.finish();
    expect(bookingOf(server, second, event.id)).toEqual([]);
  });

  it("gives the seat back when the photo fails, so the next buyer gets it", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 1 });
    const first = newPhone();
    const upload = heldOpenUpload(verifiedPhoneBrowser(server, first), fields(first, event.id), randomBytes(20_000));
    await heldSeatOf(server, first, event.id);
    upload.finish();
    const broken = await upload.response;
    expect(broken.status).toBe(415);
    expect(await broken.json()).toMatchObject({ code: "not_an_image" });
    // Nothing of the refused save is left: no booking, no users row.
    expect(bookingOf(server, first, event.id)).toEqual([]);

    const second = newPhone();
    expect((await postForm(verifiedPhoneBrowser(server, second), fields(second, event.id), jpeg)).status).toBe(200);
  });

  it("gives the seat back when the upload is cut off", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 1 });
    const first = newPhone();
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(Buffer.concat([formHead(fields(first, event.id)), jpeg.subarray(0, 1024)])));
      },
    });
    const browser = verifiedPhoneBrowser(server, first);
    const response = browser
      .request("/api/save-user-details", {
        method: "POST",
        headers: {
          "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
          "content-length": String(formHead(fields(first, event.id)).length + jpeg.length + formTail.length),
        },
        body,
        duplex: "half",
        signal: controller.signal,
      } as RequestInit)
      .catch(() => undefined);
    await heldSeatOf(server, first, event.id);
    controller.abort();
    await response;
    for (let i = 0; i < 400 && bookingOf(server, first, event.id).some((b) => b.status === "held"); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(bookingOf(server, first, event.id).filter((b) => b.status === "held")).toEqual([]);

    const second = newPhone();
    expect((await postForm(verifiedPhoneBrowser(server, second), fields(second, event.id), jpeg)).status).toBe(200);
  });

  it("cannot pay for a seat whose photo has not arrived", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 2 });
    const phone = newPhone();
    const browser = verifiedPhoneBrowser(server, phone);
    const upload = heldOpenUpload(browser, fields(phone, event.id), jpeg);
    const held = await heldSeatOf(server, phone, event.id);
    const early = await browser.postJson("/api/create-checkout-session", {
      userID: held.userId,
      eventID: event.id,
      amount: 1,
    });
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ code: "hold_expired" });

    upload.finish();
    const saved = await upload.response;
    expect(saved.status).toBe(200);
    const { userID } = (await saved.json()) as { userID: number };
    const paid = await browser.postJson("/api/create-checkout-session", { userID, eventID: event.id, amount: 1 });
    expect(paid.status).toBe(200);
  });

  it("never holds two seats for one phone, however many of its saves race", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 10 });
    const phone = newPhone();
    const browser = verifiedPhoneBrowser(server, phone);
    const broken = randomBytes(20_000);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => postForm(browser, fields(phone, event.id), i % 2 ? broken : jpeg)),
    );
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 415)).toEqual([]);
    await server.photosStored();
    const held = bookingOf(server, phone, event.id).filter((b) => b.status === "held");
    expect(held).toHaveLength(1);
    expect(held[0]?.imageName).toMatch(/^[a-f0-9]{32}\.jpg$/);
  });
});

describe("the answer before the photo is stored", () => {
  // Photos wait here until the test lets them through: what the server answers meanwhile can be seen.
  let release!: () => void;
  let released = Promise.resolve();
  const holdPhotosBack = () => {
    released = new Promise<void>((resolve) => {
      release = resolve;
    });
  };
  const server = suiteTestServer({
    env: { OTP_MAX_PER_ADDRESS: "1000" },
    deps: () => ({
      photoTurn: async (task) => {
        await released;
        return task();
      },
    }),
  });
  const checkout = (browser: BrowserClient, userID: number, eventID: number) =>
    browser.postJson("/api/create-checkout-session", { userID, eventID, amount: 1 });

  /** A first save for a one-seat event, answered while its photo is held back. */
  const savedWhilePhotosWait = async (photo: Buffer) => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 1 });
    holdPhotosBack();
    const phone = newPhone();
    const browser = verifiedPhoneBrowser(server, phone);
    const saved = await postForm(browser, fields(phone, event.id), photo);
    expect(saved.status).toBe(200);
    const { userID } = (await saved.json()) as { userID: number };
    return { event, phone, browser, userID };
  };

  it("tells a first save its seat is held while the photo still waits, and the checkout waits for it", async () => {
    const { event, phone, browser, userID } = await savedWhilePhotosWait(jpeg);
    // Answered, the seat held, the photo not stored yet; the next buyer hears sold out.
    expect(bookingOf(server, phone, event.id)).toEqual([{ status: "held", userId: userID, imageName: NO_PHOTO }]);
    const late = newPhone();
    expect((await postForm(verifiedPhoneBrowser(server, late), fields(late, event.id), jpeg)).status).toBe(409);

    const paying = checkout(browser, userID, event.id);
    release();
    const reply = await paying;
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({ url: expect.any(String) });
    expect(bookingOf(server, phone, event.id)[0]?.imageName).toMatch(/^[a-f0-9]{32}\.jpg$/);
  });

  it("gives the seat back when a photo fails after the answer, and the checkout says why to that browser only", async () => {
    // A JPEG cut short: its header reads as an image, its picture does not decode.
    const { event, phone, browser, userID } = await savedWhilePhotosWait(jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    const paying = checkout(browser, userID, event.id);
    release();
    const reply = await paying;
    expect(reply.status).toBe(415);
    expect(await reply.json()).toMatchObject({ success: false, code: "not_an_image" });
    // The seat is free again, nothing of the save is left, and the next buyer gets it.
    expect(bookingOf(server, phone, event.id)).toEqual([]);
    const stranger = newPhone();
    expect((await checkout(verifiedPhoneBrowser(server, stranger), userID, event.id)).status).toBe(403);
    const next = newPhone();
    expect((await postForm(verifiedPhoneBrowser(server, next), fields(next, event.id), jpeg)).status).toBe(200);
  });
});

describe("a seat still waiting for its photo when the process stops", () => {
  const server = suiteTestServer();

  it("is given back at startup and shutdown; a hold with its photo, or one run out, is left alone", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 5 });
    const waiting = insertHeldBooking(db, event.id);
    const withPhoto = insertHeldBooking(db, event.id);
    const ranOut = insertHeldBooking(db, event.id, { holdMs: -60_000 });
    for (const held of [waiting, ranOut])
      db.update(users).set({ imageName: NO_PHOTO, thumbName: NO_PHOTO }).where(eq(users.id, held.userId)).run();

    expect(giveBackSeatsWithoutPhoto(db, Date.now())).toBe(1);
    const left = db.select({ id: bookings.id }).from(bookings).where(eq(bookings.eventId, event.id)).all();
    expect(left.map((b) => b.id).sort()).toEqual([withPhoto.bookingId, ranOut.bookingId].sort());
    expect(db.select().from(users).where(eq(users.id, waiting.userId)).get()).toBeUndefined();
    // Nothing more to give back the second time.
    expect(giveBackSeatsWithoutPhoto(db, Date.now())).toBe(0);
  });
});
