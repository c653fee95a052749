import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { rateLimitHits } from "../db/schema.ts";
import { suiteTestServer, type TestServer, withTestServer } from "./api-harness.ts";
import { lastCode, newMobile } from "./suites/booking-flow.ts";

// Behind a reverse proxy every visitor arrives from the proxy's address. These suites speak real HTTP
// from chosen loopback source addresses: 127.0.0.1 plays the trusted proxy (TRUST_PROXY=127.0.0.1),
// 127.0.0.2 a client reaching the app directly and writing X-Forwarded-For itself.

const PROXY = "127.0.0.1";
const STRANGER = "127.0.0.2";

type Reply = { status: number; setCookie: string[]; body: string };

/** A JSON POST from `from` (a loopback source address) with extra headers. */
function post(server: TestServer, path: string, body: unknown, from: string, headers: Record<string, string> = {}) {
  const { port } = new URL(server.url);
  const payload = JSON.stringify(body);
  return new Promise<Reply>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        localAddress: from,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            setCookie: res.headers["set-cookie"] ?? [],
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const sendOtp = (server: TestServer, from: string, forwardedFor?: string) =>
  post(
    server,
    "/api/send-otp",
    { phone: newMobile().replace("+61", "0"), countryCode: "+61" },
    from,
    forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
  );

/** How many hits each key has in a limiter bucket. */
function hitsByKey(server: TestServer, bucket: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of server.deps.db.select().from(rateLimitHits).all()) {
    if (row.bucket === bucket) counts[row.key] = (counts[row.key] ?? 0) + 1;
  }
  return counts;
}

describe("behind a trusted proxy (TRUST_PROXY=127.0.0.1)", () => {
  const server = suiteTestServer({
    env: { TRUST_PROXY: PROXY, OTP_MAX_PER_ADDRESS: "2", OTP_MAX_PER_PHONE: "100", ADMIN_LOGIN_MAX_FAILURES: "2" },
  });

  it("limits codes per visitor, by the address the proxy forwards, not per proxy", async () => {
    expect((await sendOtp(server, PROXY, "198.51.100.1")).status).toBe(200);
    expect((await sendOtp(server, PROXY, "198.51.100.1")).status).toBe(200);
    expect((await sendOtp(server, PROXY, "198.51.100.1")).status).toBe(429);
    // Another visitor behind the same proxy is not shut out by the first one.
    expect((await sendOtp(server, PROXY, "198.51.100.2")).status).toBe(200);
    // A client cannot reset its count by writing its own entry on the left: the proxy appended the real one.
    expect((await sendOtp(server, PROXY, "10.9.9.9, 198.51.100.1")).status).toBe(429);
    expect(hitsByKey(server, "otp-address")).toEqual({ "198.51.100.1": 2, "198.51.100.2": 1 });
  });

  it("ignores X-Forwarded-For from a peer it does not trust, so spoofing gains nothing", async () => {
    expect((await sendOtp(server, STRANGER, "203.0.113.1")).status).toBe(200);
    expect((await sendOtp(server, STRANGER, "203.0.113.2")).status).toBe(200);
    expect((await sendOtp(server, STRANGER, "203.0.113.3")).status).toBe(429);
    const keys = Object.keys(hitsByKey(server, "otp-address"));
    expect(keys).toContain(STRANGER);
    expect(keys.filter((k) => k.startsWith("203.0.113."))).toEqual([]);
  });

  it("keys the admin login and door code limits on the forwarded address too", async () => {
    const wrong = { password: "not the password" };
    const right = { password: "correct horse battery staple" };
    expect((await post(server, "/api/admin-login", wrong, PROXY, { "x-forwarded-for": "198.51.100.7" })).status).toBe(
      401,
    );
    expect((await post(server, "/api/admin-login", wrong, PROXY, { "x-forwarded-for": "198.51.100.7" })).status).toBe(
      401,
    );
    expect((await post(server, "/api/admin-login", right, PROXY, { "x-forwarded-for": "198.51.100.7" })).status).toBe(
      429,
    );
    // The organiser, behind the same proxy, still logs in.
    expect((await post(server, "/api/admin-login", right, PROXY, { "x-forwarded-for": "198.51.100.8" })).status).toBe(
      200,
    );
    expect(hitsByKey(server, "admin-login-failure")).toEqual({ "198.51.100.7": 2 });

    const guess = { eventID: 999_999, userID: 999_999, uniqueCode: "WRONGCODE1" };
    const reply = await post(server, "/api/confirm-booking", guess, PROXY, { "x-forwarded-for": "198.51.100.9" });
    expect(JSON.parse(reply.body)).toMatchObject({ confirmed: false });
    expect(hitsByKey(server, "confirm-booking")).toEqual({ "198.51.100.9": 1 });
  });
});

describe("without TRUST_PROXY", () => {
  const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "2", OTP_MAX_PER_PHONE: "100" } });

  it("keys every limit on the socket peer, whatever X-Forwarded-For says", async () => {
    expect((await sendOtp(server, PROXY, "198.51.100.1")).status).toBe(200);
    expect((await sendOtp(server, PROXY, "198.51.100.2")).status).toBe(200);
    expect((await sendOtp(server, PROXY, "198.51.100.3")).status).toBe(429);
    expect(hitsByKey(server, "otp-address")).toEqual({ [PROXY]: 2 });
  });
});

describe("cookies", () => {
  const cookiesOf = async (server: TestServer) => {
    const phone = newMobile();
    expect((await post(server, "/api/send-otp", { phone, countryCode: "+61" }, PROXY)).status).toBe(200);
    const verified = await post(server, "/api/verify-otp", { phone, otp: await lastCode(server.url, phone) }, PROXY);
    const admin = await post(server, "/api/admin-login", { password: "correct horse battery staple" }, PROXY);
    expect([verified.status, admin.status]).toEqual([200, 200]);
    return [...verified.setCookie, ...admin.setCookie];
  };
  const secure = (line: string) => line.split(";").some((part) => part.trim().toLowerCase() === "secure");

  it("are Secure when the public origin is https, even though the proxy speaks http to the app", async () => {
    await withTestServer(
      { env: { PUBLIC_BASE_URL: "https://tickets.example.com", ALLOW_LOCAL_PROVIDERS: "1", TRUST_PROXY: "loopback" } },
      async (server) => {
        const cookies = await cookiesOf(server);
        expect(cookies.map((c) => c.split("=")[0])).toEqual(["sdt_phone", "sdt_admin"]);
        expect(cookies.every(secure)).toBe(true);
      },
    );
  });

  it("are not Secure on a plain http origin, where a browser would drop them", async () => {
    await withTestServer(async (server) => {
      const cookies = await cookiesOf(server);
      expect(cookies).toHaveLength(2);
      expect(cookies.some(secure)).toBe(false);
    });
  });
});
