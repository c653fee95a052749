import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { marketingConsents, marketingContacts } from "../../db/marketing-schema.ts";
import { suiteFake, suiteTestServer, type TestServer, withTestServer } from "../../test/api-harness.ts";
import { startFakeTwilio } from "../../test/fakes/twilio.ts";
import { newMobile } from "../../test/suites/booking-flow.ts";
import { hasConsent, recordConsent } from "./consent.ts";

// Texts sent to our number (issue 36): Twilio's webhook, signed with the account's auth token and
// checked with the SDK's own validator, opts a number out of marketing texts on STOP (and its kin) and
// back in on START. A request Twilio did not sign is 403 and changes nothing. The console provider's
// stand-in, POST /api/dev/inbound-sms, exists only in development.

const AUTH_TOKEN = "fake-auth-token-inbound-0123456789";

const consentRows = (server: TestServer) => server.deps.db.select().from(marketingConsents).all();

/** A number that said yes to marketing texts at a booking. */
function optedIn(server: TestServer): string {
  const phone = newMobile();
  recordConsent(server.deps.db, {
    channel: "sms",
    address: phone,
    given: true,
    source: "booking",
    phone,
    at: server.deps.now(),
  });
  return phone;
}

let sids = 0;
/** A message id as Twilio gives each text it receives: `SM` and 32 hex digits, never the same twice. */
const newSid = () => `SM${(++sids).toString(16).padStart(32, "0")}`;

/**
 * Twilio's POST for a text from `from`: its usual fields, form-encoded, signed as Twilio signs them.
 * Each text has its own `MessageSid` (as Twilio gives it); pass `sid` to replay one.
 */
function twilioPost(
  server: TestServer,
  from: string,
  body: string,
  sign: (params: Record<string, string>) => string | null,
  sid = newSid(),
) {
  const params: Record<string, string> = {
    MessageSid: sid,
    AccountSid: `AC${"3c".repeat(16)}`,
    From: from,
    To: "+61400000001",
    Body: body,
    NumMedia: "0",
  };
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  const signature = sign(params);
  if (signature !== null) headers["x-twilio-signature"] = signature;
  return fetch(`${server.url}/api/twilio/inbound`, {
    method: "POST",
    headers,
    body: new URLSearchParams(params).toString(),
  });
}

const realSignature = (server: TestServer) => (params: Record<string, string>) =>
  twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${server.deps.env.PUBLIC_BASE_URL}/api/twilio/inbound`, params);

describe("Twilio's inbound webhook", () => {
  const fake = suiteFake(startFakeTwilio);
  const server = suiteTestServer(() => ({
    env: {
      TWILIO_ACCOUNT_SID: `AC${"3c".repeat(16)}`,
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      TWILIO_VERIFY_SERVICE_SID: `VA${"4d".repeat(16)}`,
      TWILIO_FROM: "+61400000001",
      TWILIO_API_BASE: fake.url,
    },
  }));

  it("opts out on a signed STOP and back in on START, answering empty TwiML", async () => {
    const phone = optedIn(server);
    const stop = await twilioPost(server, phone, "  Stop  ", realSignature(server));
    expect(stop.status).toBe(200);
    expect(stop.headers.get("content-type")).toContain("text/xml");
    expect(await stop.text()).toMatch(/<Response\/>$/);
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(false);

    const start = await twilioPost(server, phone, "start", realSignature(server));
    expect(start.status).toBe(200);
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(true);

    const contact = server.deps.db
      .select()
      .from(marketingContacts)
      .all()
      .find((c) => c.address === phone);
    expect(
      consentRows(server)
        .filter((r) => r.contactId === contact?.id)
        .map((r) => ({ given: r.given, source: r.source, phone: r.phone })),
    ).toEqual([
      { given: true, source: "booking", phone },
      { given: false, source: "inbound", phone },
      { given: true, source: "inbound", phone },
    ]);
  });

  it.each(["UNSUBSCRIBE", "cancel", "End", "quit now please"])("opts out on %s", async (word) => {
    const phone = optedIn(server);
    expect((await twilioPost(server, phone, word, realSignature(server))).status).toBe(200);
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(false);
  });

  it("records nothing for any other text", async () => {
    const phone = optedIn(server);
    const before = consentRows(server).length;
    for (const body of ["Hello, is parking free?", "stopping by later", ""]) {
      const response = await twilioPost(server, phone, body, realSignature(server));
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(/<Response\/>$/);
    }
    expect(consentRows(server).length).toBe(before);
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(true);
  });

  it("refuses a forged or missing signature with 403 and records nothing", async () => {
    const phone = optedIn(server);
    const before = consentRows(server).length;
    const forgedToken = (params: Record<string, string>) =>
      twilio.getExpectedTwilioSignature(
        "another-token",
        `${server.deps.env.PUBLIC_BASE_URL}/api/twilio/inbound`,
        params,
      );
    // Signed for other fields: the body was changed after Twilio signed it.
    const otherBody = (params: Record<string, string>) => realSignature(server)({ ...params, Body: "hello" });
    for (const sign of [forgedToken, otherBody, () => "", () => null, () => "not-base64!"]) {
      const response = await twilioPost(server, phone, "STOP", sign);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ success: false, code: "forbidden" });
    }
    expect(consentRows(server).length).toBe(before);
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(true);
  });

  it("takes each text once by its MessageSid: a replayed START after a STOP changes nothing", async () => {
    const phone = optedIn(server);
    const startSid = newSid();
    expect((await twilioPost(server, phone, "START", realSignature(server), startSid)).status).toBe(200);
    expect((await twilioPost(server, phone, "STOP", realSignature(server))).status).toBe(200);
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(false);
    const before = consentRows(server).length;

    // The same signed request again, as anyone who saw it once could send it.
    const replay = await twilioPost(server, phone, "START", realSignature(server), startSid);
    expect(replay.status).toBe(200);
    expect(replay.headers.get("content-type")).toContain("text/xml");
    expect(await replay.text()).toMatch(/<Response\/>$/);
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(false);
    expect(consentRows(server).length).toBe(before);
  });

  it.each([
    ["not a phone number", "not a phone"],
    ["a short code", "12345"],
    ["a number without its +", "61412345678"],
    ["a messaging app's address", "whatsapp:+61412345678"],
  ])("refuses a From that is %s with 400, after the signature check, and records nothing", async (_, from) => {
    const before = consentRows(server).length;
    const response = await twilioPost(server, from, "START", realSignature(server));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, code: "invalid_request" });
    expect(consentRows(server).length).toBe(before);
    // Unsigned, the same request is refused for its signature first.
    expect((await twilioPost(server, from, "START", () => null)).status).toBe(403);
  });

  it("does not have the development stand-in with the real SMS provider", async () => {
    const response = await fetch(`${server.url}/api/dev/inbound-sms`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ from: newMobile(), body: "STOP" }),
    });
    expect(response.status).toBe(404);
  });
});

describe("the webhook without TWILIO_AUTH_TOKEN", () => {
  const server = suiteTestServer();

  it("refuses every request, however it is signed", async () => {
    const phone = optedIn(server);
    const response = await twilioPost(server, phone, "STOP", realSignature(server));
    expect(response.status).toBe(403);
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(true);
  });
});

describe("POST /api/dev/inbound-sms", () => {
  const server = suiteTestServer();
  const send = (url: string, body: unknown) =>
    fetch(`${url}/api/dev/inbound-sms`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("handles STOP and START as the webhook does, with the console SMS provider in development", async () => {
    const phone = optedIn(server);
    const stop = await send(server.url, { from: phone, body: "STOP" });
    expect(stop.status).toBe(200);
    expect(await stop.json()).toEqual({ outcome: "opted_out" });
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(false);
    expect(await (await send(server.url, { from: phone, body: "Start" })).json()).toEqual({ outcome: "opted_in" });
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(true);
    expect(await (await send(server.url, { from: phone, body: "see you there" })).json()).toEqual({
      outcome: "ignored",
    });
    expect(hasConsent(server.deps.db, "sms", phone)).toBe(true);
  });

  it("refuses a number that is not a mobile with 400", async () => {
    const response = await send(server.url, { from: "not a phone", body: "STOP" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "invalid_request" });
  });

  it("does not exist in production", async () => {
    await withTestServer({ deps: (base) => ({ env: { ...base.env, NODE_ENV: "production" } }) }, async (s) => {
      const phone = optedIn(s);
      const response = await send(s.url, { from: phone, body: "STOP" });
      expect(response.status).toBe(404);
      expect(hasConsent(s.deps.db, "sms", phone)).toBe(true);
    });
  });
});
