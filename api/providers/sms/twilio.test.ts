import { describe, expect, it } from "vitest";
import { browserClient, suiteFake, suiteTestServer } from "../../../test/api-harness.ts";
import { startFakeTwilio } from "../../../test/fakes/twilio.ts";

const ACCOUNT = `AC${"1a".repeat(16)}`;
const TOKEN = "fake-auth-token-0123456789";
const SERVICE = `VA${"2b".repeat(16)}`;
const FROM = "+61400000000";
const PHONE = "+61412345678";

// The real twilio SDK, pointed at a fake Twilio on loopback: the requests it sends are the contract.
describe("the Twilio provider", () => {
  const fake = suiteFake(startFakeTwilio);
  const server = suiteTestServer(() => ({
    env: {
      TWILIO_ACCOUNT_SID: ACCOUNT,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_VERIFY_SERVICE_SID: SERVICE,
      TWILIO_FROM: FROM,
      TWILIO_API_BASE: fake.url,
    },
  }));

  it("is chosen when the account keys are set, with no dev outbox", async () => {
    expect(server.deps.sms.name).toBe("twilio");
    expect(server.deps.devOutbox).toBeUndefined();
    expect((await fetch(`${server.url}/api/dev/outbox`)).status).toBe(404);
  });

  it("starts a Verify SMS verification with basic auth", async () => {
    fake.requests.length = 0;
    const response = await browserClient(server.url).postJson("/api/send-otp", {
      phone: "0412 345 678",
      countryCode: "+61",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, PhoneVerification: false });
    expect(fake.requests).toEqual([
      {
        method: "POST",
        path: `/v2/Services/${SERVICE}/Verifications`,
        basicAuth: `${ACCOUNT}:${TOKEN}`,
        contentType: expect.stringContaining("application/x-www-form-urlencoded"),
        form: { To: PHONE, Channel: "sms" },
      },
    ]);
  });

  it("checks codes with VerificationCheck: wrong is 400, right sets the cookie, a used one is expired", async () => {
    const browser = browserClient(server.url);
    await browser.postJson("/api/send-otp", { phone: PHONE, countryCode: "+61" });
    const code = fake.codes.get(PHONE) ?? "";
    const wrong = code === "000000" ? "111111" : "000000";
    fake.requests.length = 0;

    const refused = await browser.postJson("/api/verify-otp", { phone: PHONE, otp: wrong });
    expect(refused.status).toBe(400);
    expect(fake.requests[0]).toMatchObject({
      method: "POST",
      path: `/v2/Services/${SERVICE}/VerificationCheck`,
      basicAuth: `${ACCOUNT}:${TOKEN}`,
      form: { To: PHONE, Code: wrong },
    });

    const accepted = await browser.postJson("/api/verify-otp", { phone: PHONE, otp: code });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.getSetCookie().join("")).toMatch(/HttpOnly/i);

    // Verify answers 404 for a verification that is gone; the API calls that an expired code.
    const reused = await browserClient(server.url).postJson("/api/verify-otp", { phone: PHONE, otp: code });
    expect(reused.status).toBe(400);
    expect(fake.requests).toHaveLength(3);
  });

  it("sends other texts with Messages from TWILIO_FROM", async () => {
    fake.requests.length = 0;
    const { id } = await server.deps.sms.send(PHONE, "Your ticket code is ABC123");
    expect(id).toMatch(/^SM/);
    expect(fake.requests).toEqual([
      {
        method: "POST",
        path: `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`,
        basicAuth: `${ACCOUNT}:${TOKEN}`,
        contentType: expect.stringContaining("application/x-www-form-urlencoded"),
        form: { To: PHONE, From: FROM, Body: "Your ticket code is ABC123" },
      },
    ]);
  });

  it("answers 502 when Twilio fails to send the code, without Twilio's own words", async () => {
    fake.failNextWith(500, "Account AC-leaky-detail is suspended");
    const response = await browserClient(server.url).postJson("/api/send-otp", {
      phone: "0498 765 432",
      countryCode: "+61",
    });
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ success: false });
    expect(text).not.toContain("leaky");
  });

  it("answers 502 when Twilio fails to check the code, without Twilio's own words", async () => {
    const browser = browserClient(server.url);
    await browser.postJson("/api/send-otp", { phone: "0487 654 321", countryCode: "+61" });
    fake.failNextWith(503, "Service VA-leaky-detail is unavailable");
    const response = await browser.postJson("/api/verify-otp", { phone: "0487 654 321", otp: "123456" });
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ success: false });
    expect(text).not.toContain("leaky");
  });
});
