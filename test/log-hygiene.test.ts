import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { bookings } from "../db/schema.ts";
import { browserClient, suiteFake, suiteTestServer } from "./api-harness.ts";
import { ADULT_DATE_OF_BIRTH } from "./date-of-birth.ts";
import { startFakeTwilio } from "./fakes/twilio.ts";
import { insertEvent, makeImage } from "./fixtures.ts";

// With the real SMS provider, codes and link tokens travel only inside text messages: nothing the
// server logs may contain them (only the console provider, a development tool, prints messages).
describe("logs with the real SMS provider", () => {
  const lines: string[] = [];
  const fake = suiteFake(startFakeTwilio);
  const server = suiteTestServer(() => ({
    env: {
      TWILIO_ACCOUNT_SID: `AC${"3c".repeat(16)}`,
      TWILIO_AUTH_TOKEN: "fake-auth-token-for-logs",
      TWILIO_VERIFY_SERVICE_SID: `VA${"4d".repeat(16)}`,
      TWILIO_FROM: "+61400000001",
      TWILIO_API_BASE: fake.url,
    },
    // Every line is kept to be searched; errors still reach the harness, which fails on them.
    deps: (base) => ({
      log: (level, message, fields) => {
        lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
        base.log(level, message, fields);
      },
    }),
  }));

  it("never prints the code, the door code, the link tokens or the secrets", async () => {
    const printed: string[] = [];
    const keep =
      (original: (...args: unknown[]) => void) =>
      (...args: unknown[]) => {
        printed.push(args.map(String).join(" "));
        original(...args);
      };
    const spies = [
      vi.spyOn(console, "log").mockImplementation(keep(() => {})),
      vi.spyOn(console, "info").mockImplementation(keep(() => {})),
      vi.spyOn(console, "warn").mockImplementation(keep(() => {})),
      vi.spyOn(console, "error").mockImplementation(keep(() => {})),
    ];
    try {
      const { db, env } = server.deps;
      const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 5 });
      const phone = "+61412000777";
      const browser = browserClient(server.url);
      expect((await browser.postJson("/api/send-otp", { phone, countryCode: "+61" })).status).toBe(200);
      // A wrong code first (a failure path that might be tempted to log the code it compared).
      expect((await browser.postJson("/api/verify-otp", { phone, otp: "000000" })).status).toBe(400);
      const otp = fake.codes.get(phone)!;
      expect((await browser.postJson("/api/verify-otp", { phone, otp })).status).toBe(200);

      const form = new FormData();
      for (const [k, v] of Object.entries({
        name: "Zara",
        email: "zara@example.com",
        phone,
        gender: "female",
        dateOfBirth: ADULT_DATE_OF_BIRTH,
      })) {
        form.append(k, v);
      }
      form.append("eventID", String(event.id));
      form.append("image", new Blob([new Uint8Array(await makeImage())], { type: "image/jpeg" }), "z.jpg");
      const held = (await (await browser.postForm("/api/save-user-details", form)).json()) as { userID: number };

      const checkout = (await (
        await browser.postJson("/api/create-checkout-session", {
          userID: held.userID,
          eventID: event.id,
          amount: 1,
          userEmail: "zara@example.com",
          eventName: "x",
        })
      ).json()) as { sessionId: string };
      await (
        await fetch(`${server.url}/api/dev/checkout/${checkout.sessionId}/pay`, { method: "POST", redirect: "manual" })
      ).body?.cancel();
      const booking = db.select().from(bookings).where(eq(bookings.userId, held.userID)).get()!;
      expect(booking.status).toBe("paid");

      const admin = browserClient(server.url);
      expect((await admin.postJson("/api/admin-login", { password: "wrong password" })).status).toBe(401);
      expect((await admin.postJson("/api/admin-login", { password: env.ADMIN_PASSWORD })).status).toBe(200);
      expect((await admin.postJson("/api/start-event", { eventId: event.id })).status).toBe(200);
      expect((await admin.postJson("/api/end-event", { eventId: event.id })).status).toBe(200);

      // The messages really went out through Twilio, carrying the secrets we look for below.
      const texts = fake.requests.filter((r) => r.path.endsWith("/Messages.json")).map((r) => r.form.Body ?? "");
      const tokens = texts.flatMap((t) => [...t.matchAll(/[?&]t=([\w-]+)/g)].map((m) => m[1]!));
      expect(tokens.length).toBeGreaterThanOrEqual(2);
      expect(booking.uniqueCode).toBeTruthy();
      expect(texts.some((t) => t.includes(booking.uniqueCode!))).toBe(true);

      const everything = [...lines, ...printed].join("\n");
      expect(everything.length).toBeGreaterThan(0);
      for (const secret of [
        otp,
        booking.uniqueCode!,
        ...tokens,
        env.ADMIN_PASSWORD,
        env.SESSION_SECRET,
        "fake-auth-token-for-logs",
      ]) {
        expect(everything, `logs contain ${secret}`).not.toContain(secret);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
