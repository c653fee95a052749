import { describe, expect, it } from "vitest";
import { browserClient, suiteFake, suiteTestServer } from "../../test/api-harness.ts";
import { startFakeTwilio } from "../../test/fakes/twilio.ts";
import { insertEvent, makeImage } from "../../test/fixtures.ts";
import { detailsForm, lastCode, newMobile } from "../../test/suites/booking-flow.ts";

// One-time codes (docs/decisions/011-links-and-codes.md): per phone, at most 10 wrong codes an hour across all its codes and at
// most 10 codes a day, so a phone can neither be guessed into nor bombed with texts.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TOO_MANY_WRONG = {
  success: false,
  error: "too many wrong codes for this phone, try again in an hour",
  code: "rate_limited",
};
const TOO_MANY_TODAY = {
  success: false,
  error: "too many codes for this phone today, try again tomorrow",
  code: "rate_limited",
};

// Every request here comes from one address; its own limit is another test's subject.
const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000" } });

const send = async (phone: string) => {
  const response = await browserClient(server.url).postJson("/api/send-otp", { phone, countryCode: "+61" });
  return { status: response.status, body: await response.json() };
};
const verify = async (phone: string, otp: string) => {
  const response = await browserClient(server.url).postJson("/api/verify-otp", { phone, otp });
  return { status: response.status, body: await response.json(), cookies: response.headers.getSetCookie() };
};
/** A code that is not the one just texted. */
const wrongFor = (code: string) => (code === "000000" ? "111111" : "000000");
/** Sends a fresh code and types `n` wrong codes against it; returns the right one. */
async function wrongTries(phone: string, n: number): Promise<string> {
  expect((await send(phone)).status).toBe(200);
  const code = await lastCode(server.url, phone);
  for (let i = 0; i < n; i++) expect((await verify(phone, wrongFor(code))).status).toBe(400);
  return code;
}

describe("wrong codes per phone", () => {
  it("answers 429 after 10 wrong codes in an hour across several codes, even to the right code", async () => {
    const phone = newMobile();
    await wrongTries(phone, 5); // the fifth voids the first code
    const second = await wrongTries(phone, 5);

    const wrongAgain = await verify(phone, wrongFor(second));
    expect(wrongAgain).toMatchObject({ status: 429, body: TOO_MANY_WRONG });

    // A fresh code, typed right, is refused too while the hour lasts, and no cookie is set.
    server.advance(55 * MINUTE);
    expect((await send(phone)).status).toBe(200);
    const fresh = await lastCode(server.url, phone);
    expect(await verify(phone, fresh)).toEqual({ status: 429, body: TOO_MANY_WRONG, cookies: [] });

    // Once the hour has passed the same code still works: the refused try never reached the check.
    server.advance(5 * MINUTE + 30_000);
    expect(await verify(phone, fresh)).toMatchObject({ status: 200, body: { success: true } });
  });

  it("does not count a right code, or a try with no live code, as a wrong one", async () => {
    const phone = newMobile();
    await wrongTries(phone, 5);
    const right = await wrongTries(phone, 4); // 9 wrong so far
    expect((await verify(phone, right)).status).toBe(200);
    // Used already: there is no live code to guess against.
    expect((await verify(phone, right)).status).toBe(400);

    server.advance(10 * MINUTE + 1000);
    const last = await wrongTries(phone, 1); // the tenth wrong code is still an ordinary 400
    expect(await verify(phone, last)).toMatchObject({ status: 429, body: TOO_MANY_WRONG });
  });

  it("keeps one phone's wrong codes from touching another phone", async () => {
    const guessed = newMobile();
    const other = newMobile();
    await wrongTries(guessed, 5);
    const code = await wrongTries(guessed, 5);
    expect((await verify(guessed, code)).status).toBe(429);

    const otherCode = await wrongTries(other, 1);
    expect(await verify(other, otherCode)).toMatchObject({ status: 200, body: { success: true } });
  });
});

describe("codes sent per phone", () => {
  it("sends at most 10 codes to a phone in a day, however they are spaced", async () => {
    const phone = newMobile();
    for (let sent = 0; sent < 10; sent++) {
      // Three per 10 minutes is the short limit; this walks past it.
      if (sent > 0 && sent % 3 === 0) server.advance(10 * MINUTE + 1000);
      expect((await send(phone)).status, `code ${sent + 1}`).toBe(200);
    }
    server.advance(10 * MINUTE + 1000);
    expect(await send(phone)).toEqual({ status: 429, body: TOO_MANY_TODAY });
    const texts = async () =>
      ((await (await fetch(`${server.url}/api/dev/outbox`)).json()) as { to: string }[]).filter((m) => m.to === phone);
    expect(await texts()).toHaveLength(10);

    // Another phone is not affected.
    expect((await send(newMobile())).status).toBe(200);

    // A day after the first codes, the phone gets codes again.
    server.advance(DAY - 30 * MINUTE);
    expect((await send(phone)).status).toBe(200);
    expect(await texts()).toHaveLength(11);
  });
});

describe("with Twilio Verify", () => {
  const fake = suiteFake(startFakeTwilio);
  const twilio = suiteTestServer(() => ({
    env: {
      TWILIO_ACCOUNT_SID: `AC${"1a".repeat(16)}`,
      TWILIO_AUTH_TOKEN: "fake-auth-token-0123456789",
      TWILIO_VERIFY_SERVICE_SID: `VA${"2b".repeat(16)}`,
      TWILIO_FROM: "+61400000000",
      TWILIO_API_BASE: fake.url,
    },
  }));

  it("stops guesses at 10 wrong codes an hour before Verify is asked, even against one code", async () => {
    const phone = newMobile();
    const client = browserClient(twilio.url);
    expect((await client.postJson("/api/send-otp", { phone, countryCode: "+61" })).status).toBe(200);
    const code = fake.codes.get(phone) ?? "";
    const guess = (otp: string) => client.postJson("/api/verify-otp", { phone, otp });
    for (let i = 0; i < 10; i++) expect((await guess(wrongFor(code))).status).toBe(400);
    const checks = () => fake.requests.filter((r) => r.path.endsWith("/VerificationCheck")).length;
    expect(checks()).toBe(10);

    const right = await guess(code);
    expect(right.status).toBe(429);
    expect(await right.json()).toEqual(TOO_MANY_WRONG);
    expect(checks()).toBe(10);

    twilio.advance(HOUR + 1000);
    expect((await guess(code)).status).toBe(200);
  });
});

describe("codes per address count only numbers that never verify", () => {
  // The default OTP_MAX_PER_ADDRESS (10 an hour); TRUST_PROXY=loopback lets a test name the address.
  const shared = suiteTestServer({ env: { TRUST_PROXY: "loopback" } });
  const from = (address: string) => ({ "content-type": "application/json", "x-forwarded-for": address });
  const sendFrom = (address: string, phone: string) =>
    browserClient(shared.url).request("/api/send-otp", {
      method: "POST",
      headers: from(address),
      body: JSON.stringify({ phone, countryCode: "+61" }),
    });
  /** A buyer behind `address` who asks for a code and types it: the browser that verified. */
  async function honestBuyer(address: string, phone: string) {
    const browser = browserClient(shared.url);
    const sent = await browser.request("/api/send-otp", {
      method: "POST",
      headers: from(address),
      body: JSON.stringify({ phone, countryCode: "+61" }),
    });
    if (sent.status !== 200) return { status: sent.status, browser };
    const otp = await lastCode(shared.url, phone);
    const verified = await browser.request("/api/verify-otp", {
      method: "POST",
      headers: from(address),
      body: JSON.stringify({ phone, otp }),
    });
    return { status: verified.status, browser };
  }

  it("lets 500 honest buyers behind one carrier address each verify their own code, and book", async () => {
    const event = await insertEvent(shared.deps.db, shared.deps.env.UPLOADS_DIR, {
      startsAt: shared.deps.now() + 7 * DAY,
      totalSeats: 40,
    });
    const image = new Uint8Array(await makeImage("jpeg", 160, 120));
    const refused: number[] = [];
    for (let i = 0; i < 500; i++) {
      const phone = newMobile();
      const buyer = await honestBuyer("203.0.113.50", phone);
      if (buyer.status !== 200) refused.push(i);
      if (i < 20) {
        // The first twenty also hold a seat from the same address: the details form is not the next wall.
        const held = await buyer.browser.request("/api/save-user-details", {
          method: "POST",
          headers: { "x-forwarded-for": "203.0.113.50" },
          body: detailsForm({ phone, eventId: event.id, image, gender: i % 2 ? "male" : "female" }),
        });
        expect(held.status, `hold ${i + 1}`).toBe(200);
      }
    }
    expect(refused).toEqual([]);
  }, 60_000);

  it("stops the 11th unverified number from one address in an hour, and no other address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await sendFrom("203.0.113.60", newMobile())).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual(Array(20).fill(429));
    // While the address is full of codes nobody typed, an honest buyer there waits too: that is the cost.
    expect((await honestBuyer("203.0.113.60", newMobile())).status).toBe(429);
    // Another address is not affected.
    expect((await honestBuyer("198.51.100.60", newMobile())).status).toBe(200);
    // An hour later the unverified codes no longer count.
    shared.advance(HOUR + 1000);
    expect((await honestBuyer("203.0.113.60", newMobile())).status).toBe(200);
  });

  it("gives an address its count back when the number verifies, even from another address", async () => {
    const phones = Array.from({ length: 10 }, () => newMobile());
    for (const phone of phones) expect((await sendFrom("203.0.113.70", phone)).status).toBe(200);
    expect((await sendFrom("203.0.113.70", newMobile())).status).toBe(429);
    // One of them types its code on mobile data, away from the shared Wi-Fi.
    const phone = phones[0] ?? "";
    const otp = await lastCode(shared.url, phone);
    const verified = await browserClient(shared.url).request("/api/verify-otp", {
      method: "POST",
      headers: from("198.51.100.70"),
      body: JSON.stringify({ phone, otp }),
    });
    expect(verified.status).toBe(200);
    expect((await sendFrom("203.0.113.70", newMobile())).status).toBe(200);
    expect((await sendFrom("203.0.113.70", newMobile())).status).toBe(429);
  });
});
