import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitHits } from "../../db/schema.ts";
import { browserClient, suiteTestServer, type TestServer, withTestServer } from "../../test/api-harness.ts";
import { newMobile } from "../../test/suites/booking-flow.ts";
import { send } from "../../test/suites/http.ts";

// Password guessing spread over addresses (docs/decisions/009-admin-login-and-sessions.md), and sessions that end on the server. Requests
// leave from chosen loopback addresses (the first suite's server listens on "::", so ::1 reaches it
// too); addresses beyond loopback arrive the way they do in production, through a trusted proxy's
// X-Forwarded-For.

const PASSWORD = "correct horse battery staple";
const WRONG = "not the password";
const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** A login sent from the loopback address `from`, optionally for a client a proxy forwards. */
async function login(server: TestServer, password: string, from = "127.0.0.1", forwardedFor?: string) {
  const reply = await send(server.url, {
    method: "POST",
    path: "/api/admin-login",
    headers: { "content-type": "application/json", ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) },
    body: JSON.stringify({ password }),
    localAddress: from,
  });
  return reply.status;
}

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");

async function holdsSession(server: TestServer, cookie: string) {
  const reply = await send(server.url, { method: "GET", path: "/api/admin-session" }, cookie);
  return (JSON.parse(reply.text) as { admin: boolean }).admin;
}

describe("password guesses from one IPv6 network", () => {
  // Three failures an address, below the owner's own lock of five (docs/decisions/050-the-team.md),
  // so the address's limit is what answers here.
  const server = suiteTestServer({
    hostname: "::",
    env: { TRUST_PROXY: "loopback", OTP_MAX_PER_PHONE: "100", ADMIN_LOGIN_MAX_FAILURES: "3" },
  });

  it("count against the whole /64, while ::1 and each IPv4 address stay clients of their own", async () => {
    for (let i = 1; i <= 3; i++) expect(await login(server, WRONG, "::1", `2001:db8:1:2::${i}`)).toBe(401);
    expect(await login(server, PASSWORD, "::1", "2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe(429);
    expect(await login(server, PASSWORD, "127.0.0.1", "2001:db8:1:2:abcd::6")).toBe(429);
    // The next network is somebody else.
    expect(await login(server, PASSWORD, "::1", "2001:db8:1:3::1")).toBe(200);

    // Straight from the socket (no X-Forwarded-For): ::1 locks itself, not 127.0.0.x.
    for (let i = 0; i < 3; i++) expect(await login(server, WRONG, "::1")).toBe(401);
    expect(await login(server, PASSWORD, "::1")).toBe(429);
    expect(await login(server, PASSWORD, "127.0.0.9")).toBe(200);
    expect(await login(server, PASSWORD, "127.0.0.1")).toBe(200);

    const failures: Record<string, number> = {};
    for (const row of server.deps.db.select().from(rateLimitHits).all()) {
      if (row.bucket === "admin-login-failure") failures[row.key] = (failures[row.key] ?? 0) + 1;
    }
    expect(failures).toEqual({ "2001:db8:1:2::/64": 3, "::1": 3 });
  });

  it("are not the only limit keyed on the /64: sending codes is too", async () => {
    const otp = (address: string) =>
      send(server.url, {
        method: "POST",
        path: "/api/send-otp",
        headers: { "content-type": "application/json", "x-forwarded-for": address },
        body: JSON.stringify({ phone: newMobile(), countryCode: "+61" }),
        localAddress: "::1",
      });
    // OTP_MAX_PER_ADDRESS is 10 an hour.
    for (let i = 1; i <= 10; i++) expect((await otp(`2001:db8:9:9::${i.toString(16)}`)).status).toBe(200);
    expect((await otp("2001:db8:9:9::beef")).status).toBe(429);
    expect((await otp("2001:db8:9:a::1")).status).toBe(200);
  });
});

describe("past the site-wide ceiling of 100 failed sign-ins in 15 minutes", () => {
  const waits: number[] = [];
  // When set, a wait ends only when the test says so.
  let gate: { waiting: (() => void)[]; allWaiting: (n: number) => void; expected: number } | null = null;
  const server = suiteTestServer({
    // Five failures an address, as the owner's account lock; the default (50) is for a venue's Wi-Fi.
    env: { TRUST_PROXY: "loopback", ADMIN_LOGIN_MAX_FAILURES: "5" },
    deps: () => ({
      sleep: (ms: number) => {
        waits.push(ms);
        const g = gate;
        if (!g) return Promise.resolve();
        return new Promise<void>((resolve) => {
          g.waiting.push(resolve);
          if (g.waiting.length === g.expected) g.allWaiting(g.expected);
        });
      },
    }),
  });
  beforeAll(async () => {
    // Twenty-five visitors, four failures each: no address reaches its own limit of five, and the
    // owner signing in between them keeps the owner's own lock (five wrong in a row) from closing.
    for (let visitor = 1; visitor <= 25; visitor++) {
      for (let i = 0; i < 4; i++) expect(await login(server, WRONG, "127.0.0.1", `198.51.100.${visitor}`)).toBe(401);
      expect(await login(server, PASSWORD, "127.0.0.1", `192.0.2.${visitor}`)).toBe(200);
    }
  });

  it("still stops at five failures per address when the slowed attempts are sent side by side", async () => {
    const before = waits.length;
    const allWaiting = new Promise<number>((resolve) => {
      gate = { waiting: [], allWaiting: resolve, expected: 8 };
    });
    // A team member's sign-in, so the owner's account stays open for the next test; each waits on
    // the slowdown, then on a password hash, and is counted before that hash.
    const attempts = Promise.all(
      Array.from({ length: 8 }, () =>
        send(server.url, {
          method: "POST",
          path: "/api/team-login",
          headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.50" },
          body: JSON.stringify({ email: "someone@example.com", password: WRONG, code: "123456" }),
          localAddress: "127.0.0.1",
        }).then((reply) => reply.status),
      ),
    );
    // Code that never waits answers them all instead.
    expect(await Promise.race([allWaiting, attempts.then(() => "answered without waiting")])).toBe(8);
    const waiting = gate?.waiting ?? [];
    gate = null;
    for (const resume of waiting) resume();
    const statuses = (await attempts).sort();
    expect(waits.length - before).toBe(8);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it("slows every further attempt by two seconds instead of refusing it, until the failures age out", async () => {
    const before = waits.length;
    expect(await login(server, WRONG, "127.0.0.1", "203.0.113.1")).toBe(401);
    expect(waits.slice(before)).toEqual([2000]);
    // The organiser, from an address with no failures, still gets in.
    expect(await login(server, PASSWORD, "127.0.0.1", "203.0.113.2")).toBe(200);
    expect(waits.slice(before)).toEqual([2000, 2000]);
    // An address that used up its own five is refused at once, as before.
    expect(await login(server, PASSWORD, "127.0.0.1", "203.0.113.50")).toBe(429);
    expect(waits.slice(before)).toEqual([2000, 2000]);

    server.advance(FIFTEEN_MINUTES + 1000);
    expect(await login(server, PASSWORD, "127.0.0.1", "203.0.113.3")).toBe(200);
    expect(waits.slice(before)).toEqual([2000, 2000]);
  });
});

describe("admin sessions", () => {
  const server = suiteTestServer();

  it("end on the server at logout: a copy of the cookie stops working at once", async () => {
    const organiser = browserClient(server.url);
    const other = browserClient(server.url);
    const login = await organiser.postJson("/api/admin-login", { password: PASSWORD });
    expect(login.status).toBe(200);
    const copied = cookieOf(login);
    expect((await other.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
    expect(await holdsSession(server, copied)).toBe(true);

    expect((await organiser.postJson("/api/admin-logout", {})).status).toBe(200);
    expect(await holdsSession(server, copied)).toBe(false);
    expect((await send(server.url, { method: "GET", path: "/api/get-event-user/1" }, copied)).status).toBe(401);
    // Only that session ended: another browser's stays.
    expect((await (await other.get("/api/admin-session")).json()) as unknown).toEqual({ admin: true, member: null });
  });

  it("are marked no-store in every admin answer, refusals included", async () => {
    const admin = browserClient(server.url);
    const anon = browserClient(server.url);
    const answers = [
      await anon.postJson("/api/admin-login", { password: WRONG }),
      await anon.postJson("/api/admin-login", { password: 42 }),
      await admin.postJson("/api/admin-login", { password: PASSWORD }),
      await admin.get("/api/admin-session"),
      await admin.get("/api/get-event-user/987654"),
      await anon.get("/api/get-event-user/987654"),
      await admin.get("/api/admin-event/987654/roster"),
      await anon.postJson("/api/check-in", { eventID: 1, userID: 1, clientTs: 1 }),
      await admin.postJson("/api/admin-logout", {}),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 400, 200, 200, 404, 401, 404, 401, 200]);
    for (const answer of answers) expect(answer.headers.get("cache-control")).toBe("no-store");
  });
});

describe("changing ADMIN_PASSWORD", () => {
  const dir = mkdtempSync(join(tmpdir(), "sdt-admin-password-"));
  const database = join(dir, "app.db");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The same database opened again after a restart with `password`. */
  const restartWith = (password: string, work: (server: TestServer) => Promise<void>) =>
    withTestServer({ env: { DATABASE_PATH: database, ADMIN_PASSWORD: password } }, work);

  it("ends every session opened with the old one; a restart alone ends none", async () => {
    let cookie = "";
    await restartWith(PASSWORD, async (server) => {
      const login = await send(server.url, {
        method: "POST",
        path: "/api/admin-login",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ password: PASSWORD }),
      });
      expect(login.status).toBe(200);
      cookie = (login.headers?.["set-cookie"] ?? []).map((line) => line.split(";")[0]).join("; ");
    });
    await restartWith(PASSWORD, async (server) => {
      expect(await holdsSession(server, cookie)).toBe(true);
    });
    await restartWith("a brand new organiser password", async (server) => {
      expect(await holdsSession(server, cookie)).toBe(false);
      expect((await send(server.url, { method: "GET", path: "/api/get-event-user/1" }, cookie)).status).toBe(401);
    });
  });
});
