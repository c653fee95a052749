import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { feedbackToken, linkToken } from "../api/lib/capability.ts";
import { bookings } from "../db/schema.ts";
import { browserClient, suiteTestServer } from "./api-harness.ts";
import { insertEvent, insertPaidBookings, makeImage } from "./fixtures.ts";
import { detailsForm, lastCode, newMobile } from "./suites/booking-flow.ts";

// Transport and caching (docs/decisions/013-headers-and-providers.md), in one place: HSTS when the public origin is https, and
// `Cache-Control: no-store` on every answer that carries personal data, a code or a capability,
// while the public reads stay cacheable (docs/decisions/013).

const PASSWORD = "correct horse battery staple";

describe("Strict-Transport-Security", () => {
  const https = suiteTestServer({
    env: { PUBLIC_BASE_URL: "https://tickets.example.com", ALLOW_LOCAL_PROVIDERS: "1" },
  });
  const http = suiteTestServer();

  it("is sent on every answer when the public origin is https, for a year and the subdomains", async () => {
    for (const path of ["/api/get-events", "/api/get-event/999999", "/api/nowhere", "/healthz"]) {
      const hsts = (await fetch(https.url + path)).headers.get("strict-transport-security") ?? "";
      const maxAge = Number(/max-age=(\d+)/.exec(hsts)?.[1]);
      expect(maxAge, path).toBeGreaterThanOrEqual(31_536_000);
      expect(hsts, path).toMatch(/includeSubDomains/i);
    }
  });

  it("is not sent when the public origin is plain http", async () => {
    const response = await fetch(`${http.url}/api/get-events`);
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("Cache-Control", () => {
  const server = suiteTestServer();
  /** What each call answered: its status and Cache-Control, collected along one real booking night. */
  const answers = new Map<string, { status: number; cache: string | null }>();
  let eventImage: string;

  const record = (label: string, response: Response) => {
    answers.set(label, { status: response.status, cache: response.headers.get("cache-control") });
    return response;
  };

  beforeAll(async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { name: "Caching Night", totalSeats: 6 });
    eventImage = event.imageName;
    // The buyer is a woman (booking-flow's form); two men are already paid, so she has partners.
    const [partner] = insertPaidBookings(db, event.id, 2, { gender: "male" });

    const phone = newMobile();
    const buyer = browserClient(server.url);
    record("POST /api/send-otp", await buyer.postJson("/api/send-otp", { phone, countryCode: "+61" }));
    record("GET /api/dev/outbox", await fetch(`${server.url}/api/dev/outbox`));
    const otp = await lastCode(server.url, phone);
    record("POST /api/verify-otp", await buyer.postJson("/api/verify-otp", { phone, otp }));

    const held = record(
      "POST /api/save-user-details",
      await buyer.postForm(
        "/api/save-user-details",
        detailsForm({ phone, eventId: event.id, image: await makeImage() }),
      ),
    );
    const { userID } = (await held.json()) as { userID: number };

    const checkout = record(
      "POST /api/create-checkout-session",
      await buyer.postJson("/api/create-checkout-session", { userID, eventID: event.id, amount: 1 }),
    );
    const { sessionId } = (await checkout.json()) as { sessionId: string };
    record("GET /api/dev/checkout/{id}", await fetch(`${server.url}/api/dev/checkout/${sessionId}`));
    const paid = record(
      "POST /api/dev/checkout/{id}/pay",
      await fetch(`${server.url}/api/dev/checkout/${sessionId}/pay`, { method: "POST", redirect: "manual" }),
    );
    await paid.body?.cancel();

    const status = record(
      "GET /api/checkout-session",
      await buyer.get(`/api/checkout-session?session_id=${encodeURIComponent(sessionId)}`),
    );
    const { paymentIntentId } = (await status.json()) as { paymentIntentId: string };
    const confirmation = record(
      "POST /api/send-confirmation",
      await buyer.postJson("/api/send-confirmation", { userID, eventID: event.id, paymentIntentId }),
    );
    const { uniqueCode } = (await confirmation.json()) as { uniqueCode: string };

    const admin = browserClient(server.url);
    record("POST /api/admin-login", await admin.postJson("/api/admin-login", { password: PASSWORD }));
    record(
      "POST /api/admin-login (refused)",
      await browserClient(server.url).postJson("/api/admin-login", { password: "not the password" }),
    );
    record("GET /api/admin-session", await admin.get("/api/admin-session"));
    record(
      "GET /api/get-event-details (with the code)",
      await admin.get(`/api/get-event-details?eventID=${event.id}&userID=${userID}`),
    );
    record(
      "GET /api/get-event-details (public)",
      await fetch(`${server.url}/api/get-event-details?eventID=${event.id}&userID=${userID}`),
    );
    record(
      "POST /api/confirm-booking",
      await browserClient(server.url).postJson("/api/confirm-booking", {
        eventID: event.id,
        userID,
        uniqueCode,
      }),
    );
    const booking = db
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.userId, userID), eq(bookings.eventId, event.id)))
      .get();
    const bookingId = booking?.id ?? 0;
    record(
      "POST /api/ticket",
      await fetch(`${server.url}/api/ticket`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ bookingId, t: linkToken(env, "ticket", bookingId) }),
      }),
    );
    record("GET /api/get-event-user/{id}", await admin.get(`/api/get-event-user/${event.id}`));
    record("GET /api/admin-event/{id}/roster", await admin.get(`/api/admin-event/${event.id}/roster`));
    record("GET /api/get-event-user/{id} (no session)", await fetch(`${server.url}/api/get-event-user/${event.id}`));

    expect((await admin.postJson("/api/start-event", { eventId: event.id })).status).toBe(200);
    // Both came (her code above was checked at home, which is no arrival), so each is the other's partner.
    db.update(bookings)
      .set({ checkedInAt: server.deps.now() })
      .where(inArray(bookings.userId, [userID, partner!.userId]))
      .run();
    const start = feedbackToken(env, "start", userID, event.id);
    record(
      "POST /api/get-participants",
      await fetch(`${server.url}/api/get-participants`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userID, eventID: event.id, token: start }),
      }),
    );
    record(
      "POST /api/save-feedback",
      await fetch(`${server.url}/api/save-feedback`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          fromUserID: userID,
          toUserID: partner?.userId,
          eventID: event.id,
          feedback: "like",
          token: start,
        }),
      }),
    );
    expect((await admin.postJson("/api/end-event", { eventId: event.id })).status).toBe(200);
    // The report opens once the results are released (docs/decisions/021-results.md).
    expect((await admin.postJson("/api/release-results", { eventId: event.id })).status).toBe(200);
    record(
      "POST /api/get-feedback",
      await fetch(`${server.url}/api/get-feedback`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userID, eventID: event.id, token: feedbackToken(env, "report", userID, event.id) }),
      }),
    );
    record("POST /api/admin-logout", await admin.postJson("/api/admin-logout", {}));
  });

  // Each carries a phone, an email, a door code, a payment id, a checkout link, a verification
  // cookie or admin data; a refusal on the same path is just as private.
  it.each([
    ["POST /api/send-otp", 200],
    ["POST /api/verify-otp", 200],
    ["GET /api/dev/outbox", 200],
    ["POST /api/save-user-details", 200],
    ["POST /api/create-checkout-session", 200],
    ["GET /api/dev/checkout/{id}", 200],
    ["POST /api/dev/checkout/{id}/pay", 303],
    ["GET /api/checkout-session", 200],
    ["POST /api/send-confirmation", 200],
    ["GET /api/get-event-details (with the code)", 200],
    ["GET /api/get-event-details (public)", 200],
    ["POST /api/confirm-booking", 200],
    ["POST /api/ticket", 200],
    ["POST /api/admin-login", 200],
    ["POST /api/admin-login (refused)", 401],
    ["GET /api/admin-session", 200],
    ["GET /api/get-event-user/{id}", 200],
    ["GET /api/get-event-user/{id} (no session)", 401],
    ["GET /api/admin-event/{id}/roster", 200],
    ["POST /api/get-participants", 200],
    ["POST /api/save-feedback", 200],
    ["POST /api/get-feedback", 200],
    ["POST /api/admin-logout", 200],
  ])("%s is never stored by a browser or proxy", (label, status) => {
    const answer = answers.get(label);
    expect(answer?.status, label).toBe(status);
    expect(answer?.cache ?? "", label).toMatch(/\bno-store\b/);
  });

  it("leaves the public reads cacheable", async () => {
    const list = await fetch(`${server.url}/api/get-events`);
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toBe("no-cache");
    for (const prefix of ["/api/images/", "/api/uploads/images/"]) {
      const image = await fetch(server.url + prefix + eventImage);
      expect(image.status).toBe(200);
      expect(image.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    const config = await fetch(`${server.url}/api/public-config`);
    expect(config.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
  });
});

describe("Compression", () => {
  const server = suiteTestServer();
  const gzipped = (path: string, init: RequestInit = {}) =>
    fetch(server.url + path, { ...init, headers: { ...init.headers, "accept-encoding": "gzip, deflate, br" } });

  it("leaves a small JSON answer as it is, with its length, for a browser that accepts gzip", async () => {
    // A refusal, as an on-sale rush sends thousands of (issue 38), and a small success.
    const refused = await gzipped("/api/send-otp", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone: "not a phone" }),
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-encoding")).toBeNull();
    const text = await refused.text();
    expect(refused.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toMatchObject({ success: false, code: "invalid_request" });
    const small = await gzipped("/api/public-config");
    expect(small.status).toBe(200);
    expect(small.headers.get("content-encoding")).toBeNull();
  });

  it("still compresses a JSON answer worth it", async () => {
    const docs = await gzipped("/api/openapi.json");
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-encoding")).toBe("gzip");
    expect((await docs.json()) as { openapi: string }).toMatchObject({ openapi: expect.any(String) });
  });
});
