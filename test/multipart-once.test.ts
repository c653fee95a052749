import { readdirSync } from "node:fs";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../api/app.ts";
import { bookings, events } from "../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer, verifiedPhoneBrowser } from "./api-harness.ts";
import { yearLike } from "./clock.ts";
import { ADULT_DATE_OF_BIRTH } from "./date-of-birth.ts";
import { insertEvent, makeImage } from "./fixtures.ts";

// The multipart calls read their form once, as it arrives, with busboy (api/lib/multipart.ts,
// docs/decisions/045-multipart-once.md): no second parser runs over the body, a body stream that can
// be read only once is enough, and however a form is cut or its boundary broken the answer is a 4xx
// that changes nothing. The seat held from the fields before the photo (docs/decisions/007-scale.md)
// is given back when anything after them refuses the save.

const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "100000" } });
const Y = yearLike(2031);
const BOUNDARY = "----multipart-once";

let phoneSeq = Math.floor(Math.random() * 1e7);
const newPhone = () => `+614${String(10_000_000 + (++phoneSeq % 89_999_999))}`;

type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };

/** A multipart body built by hand, so a test can cut it or break its boundary. */
function multipart(parts: Part[], boundary = BOUNDARY): Buffer {
  return Buffer.concat([
    ...parts.flatMap((p) =>
      "value" in p
        ? [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`)]
        : [
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`,
            ),
            p.data,
            Buffer.from("\r\n"),
          ],
    ),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
}

const textParts = (values: Record<string, string>): Part[] =>
  Object.entries(values).map(([name, value]) => ({ name, value }));

const detailsParts = (phone: string, eventId: number, photo: Buffer): Part[] => [
  ...textParts({
    name: "Priya Sharma",
    email: "priya@example.com",
    phone,
    gender: "female",
    dateOfBirth: ADULT_DATE_OF_BIRTH,
    eventID: String(eventId),
  }),
  { name: "image", filename: "me.jpg", type: "image/jpeg", data: photo },
];

const eventParts = (picture: Buffer): Part[] => [
  ...textParts({
    eventName: "Harbour Mixer",
    eventDate: `${Y}-03-04`,
    eventTime: "19:30",
    eventAddress: "1 George St, Sydney NSW 2000",
    totalSeats: "20",
    bookingAmount: "45",
    eventduration: "2",
    fromage: "25",
    toage: "35",
  }),
  { name: "eventImage", filename: "e.jpg", type: "image/jpeg", data: picture },
];

const post = (
  browser: BrowserClient,
  path: string,
  body: Buffer,
  contentType = `multipart/form-data; boundary=${BOUNDARY}`,
) => browser.request(path, { method: "POST", headers: { "content-type": contentType }, body: new Uint8Array(body) });

/** The same pseudo-random numbers on every run, so a failing case can be reproduced. */
function seeded(seed: number) {
  let x = seed;
  return (n: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

const bookingsOf = (phone: string, eventId: number) =>
  server.deps.db
    .select({ status: bookings.status })
    .from(bookings)
    .where(and(eq(bookings.phone, phone), eq(bookings.eventId, eventId)))
    .all();
const eventCount = () => server.deps.db.select({ id: events.id }).from(events).all().length;
const uploadsCount = () => readdirSync(server.deps.env.UPLOADS_DIR).length;

let jpeg: Buffer;
let admin: BrowserClient;
beforeAll(async () => {
  jpeg = await makeImage("jpeg", 400, 300);
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: "correct horse battery staple" })).status).toBe(200);
});

/**
 * How often the platform's own form parser (what Hono's form reading calls) ran while `fn` ran. The
 * server's lightweight Request and Response (@hono/node-server) hand it to the native classes, whose
 * `formData` is counted here.
 */
async function platformFormParses(fn: () => Promise<void>) {
  let calls = 0;
  const native = (proto: object | null): object | null =>
    !proto || Object.getOwnPropertyDescriptor(proto, "formData")?.writable
      ? proto
      : native(Object.getPrototypeOf(proto));
  const originals = [native(Response.prototype), native(Request.prototype)].map((proto) => {
    const target = proto as { formData(this: unknown): Promise<FormData> };
    return [target, target.formData] as const;
  });
  for (const [target, original] of originals) {
    target.formData = function (this: unknown) {
      calls++;
      return original.call(this);
    };
  }
  try {
    await fn();
  } finally {
    for (const [target, original] of originals) target.formData = original;
  }
  return calls;
}

describe("the multipart calls read their form once", () => {
  it("runs no second parser over save-user-details', save-event's or update-event-image's form", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const parses = await platformFormParses(async () => {
      const phone = newPhone();
      const saved = await post(
        verifiedPhoneBrowser(server, phone),
        "/api/save-user-details",
        multipart(detailsParts(phone, event.id, jpeg)),
      );
      expect(saved.status).toBe(200);
      const created = await post(admin, "/api/save-event", multipart(eventParts(jpeg)));
      expect(created.status).toBe(200);
      const replaced = await post(
        admin,
        "/api/update-event-image",
        multipart([
          { name: "eventid", value: String(event.id) },
          { name: "eventImage", filename: "e.jpg", type: "image/jpeg", data: jpeg },
        ]),
      );
      expect(replaced.status).toBe(200);
    });
    expect(parses).toBe(0);
    await server.photosStored();
  });

  it("needs the body stream only once, read to its end", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const phone = newPhone();
    const body = multipart(detailsParts(phone, event.id, jpeg));
    let pulled = 0;
    // A stream, like a request's, that gives each byte once and then is done.
    const once = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < body.length; at += 1000) controller.enqueue(new Uint8Array(body.subarray(at, at + 1000)));
        controller.close();
      },
    });
    const counted = once.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    const cookie = [...verifiedPhoneBrowser(server, phone).jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const reply = await createApp(server.deps).request("/api/save-user-details", {
      method: "POST",
      headers: {
        cookie,
        "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
        "content-length": String(body.length),
      },
      body: counted,
      duplex: "half",
    } as RequestInit);
    expect(reply.status).toBe(200);
    expect(pulled).toBe(body.length);
    expect(bookingsOf(phone, event.id)).toEqual([{ status: "held" }]);
    await server.photosStored();
  });

  it("gives back the seat held from the fields before the photo when a later part refuses the save", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 1 });
    const phone = newPhone();
    const browser = verifiedPhoneBrowser(server, phone);
    const refusals: [string, Part[]][] = [
      [
        "a bad field after the photo",
        [...detailsParts(phone, event.id, jpeg), { name: "keepDetails", value: "maybe" }],
      ],
      [
        "two photos",
        [...detailsParts(phone, event.id, jpeg), { name: "image", filename: "b.jpg", type: "image/jpeg", data: jpeg }],
      ],
      ["the phone again after the photo", [...detailsParts(phone, event.id, jpeg), { name: "phone", value: phone }]],
    ];
    for (const [label, parts] of refusals) {
      const reply = await post(browser, "/api/save-user-details", multipart(parts));
      expect(reply.status, label).toBe(400);
      expect(await reply.json(), label).toMatchObject({ success: false, code: "invalid_request" });
      expect(bookingsOf(phone, event.id), label).toEqual([]);
    }
    // The one seat is still there for the next buyer.
    const next = newPhone();
    const taken = await post(
      verifiedPhoneBrowser(server, next),
      "/api/save-user-details",
      multipart(detailsParts(next, event.id, jpeg)),
    );
    expect(taken.status).toBe(200);
    await server.photosStored();
  });
});

describe("a form cut short or with a broken boundary", () => {
  it("answers save-user-details with a 4xx, never a 5xx, and holds nothing", { timeout: 60_000 }, async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 1 });
    // Each from its own verified phone, so none is refused for saving too often.
    const send = (body: (whole: Buffer) => Buffer, type?: string) => {
      const phone = newPhone();
      const whole = multipart([...detailsParts(phone, event.id, jpeg), { name: "keepDetails", value: "false" }]);
      return post(verifiedPhoneBrowser(server, phone), "/api/save-user-details", body(whole), type);
    };
    const uploads = uploadsCount();
    const random = seeded(0x2545f491);
    const replies: { label: string; status: number }[] = [];
    for (let i = 0; i < 40; i++) {
      // Anywhere before the closing `--`: in the fields, in the photo's headers or bytes, after it.
      const cut = (whole: Buffer) => whole.subarray(0, random(whole.length - 3));
      replies.push({ label: `cut ${i}`, status: (await send(cut)).status });
    }
    for (let i = 0; i < 20; i++) {
      // The boundary the header names is not the body's: one character changed, or a stranger one.
      const other = i % 2 ? `${BOUNDARY.slice(0, -1)}${"abcdefgh"[random(8)]}` : `x${random(1e9)};"' =`;
      const type = i % 4 < 2 ? `multipart/form-data; boundary=${other}` : `multipart/form-data; boundary="${other}"`;
      replies.push({ label: type, status: (await send((whole) => whole, type)).status });
    }
    for (const type of ["multipart/form-data", "multipart/form-data; boundary=", 'multipart/form-data; boundary=""']) {
      replies.push({ label: type, status: (await send((whole) => whole, type)).status });
    }
    expect(replies.filter((r) => r.status < 400 || r.status >= 500)).toEqual([]);
    expect(db.select().from(bookings).where(eq(bookings.eventId, event.id)).all()).toEqual([]);
    expect(uploadsCount()).toBe(uploads);

    // The same form, whole, takes the seat.
    expect((await send((whole) => whole)).status).toBe(200);
    await server.photosStored();
  });

  it("answers save-event with a 4xx, never a 5xx, and adds no event", { timeout: 60_000 }, async () => {
    const whole = multipart(eventParts(jpeg));
    const before = eventCount();
    const uploads = uploadsCount();
    const random = seeded(0x9e3779b9);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await post(admin, "/api/save-event", whole.subarray(0, random(whole.length - 3)))).status);
    statuses.push((await post(admin, "/api/save-event", whole, "multipart/form-data; boundary=another")).status);
    statuses.push((await post(admin, "/api/save-event", whole, "multipart/form-data")).status);
    expect(statuses.filter((s) => s < 400 || s >= 500)).toEqual([]);
    expect(eventCount()).toBe(before);
    expect(uploadsCount()).toBe(uploads);
  });
});
