import { and, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, outboxMessages, users } from "../../db/schema.ts";
import { ownerSecurity, passkeys, recoveryCodes, teamMembers } from "../../db/team-schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { HOUR, json, MINUTE, PASSWORD } from "../../test/suites/host-access.ts";
import { guestBrowser, sessionBrowser, setupTokenFor as setupTokenForIn } from "../../test/suites/team.ts";
import { decryptSecret, encryptSecret, hashPassword } from "../lib/crypto.ts";
import { newTotpSecret, TOTP_STEP_MS, totpCode } from "../lib/totp.ts";

// The team on the server (issue 49, docs/decisions/050-the-team.md): the
// owner adds a member, the member sets up a password and an authenticator app from the emailed link
// and signs in; Remove, Resend, Sign out everywhere; locks per account; the owner's second factor;
// and no secret in any reply, log line or download. The clock is the server's (`advance`).

const MEMBER_PASSWORD = "a long enough passphrase";

/** Every reply body and log line the suite saw: no secret may be in any of them. */
const seen: string[] = [];
const logs: string[] = [];

const server = suiteTestServer({
  env: { BUSINESS_NAME: "Saathi Test Nights", ORGANISER_EMAIL: "owner@saathi.example" },
  deps: (base) => ({
    log: (level, message, fields) => {
      logs.push(JSON.stringify({ level, message, ...fields }));
      base.log(level, message, fields);
    },
  }),
});

let owner: BrowserClient;

beforeAll(async () => {
  owner = browserClient(server.url);
  expect((await owner.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

/** The reply's JSON, kept in `seen`. */
async function body<T = Record<string, unknown>>(response: Response): Promise<T> {
  const text = await response.text();
  seen.push(text);
  return JSON.parse(text) as T;
}

const setupTokenFor = (email: string) => setupTokenForIn(server.deps.db, email);

const secretOf = (otpauthUri: string) => new URL(otpauthUri).searchParams.get("secret") ?? "";

/**
 * Moves the server's clock to the middle of a TOTP step, so the real time a test takes (a few hashes)
 * cannot carry a code across a step's edge and make a window test pass or fail by chance.
 */
function midStep() {
  const into = server.deps.now() % TOTP_STEP_MS;
  server.advance((TOTP_STEP_MS + TOTP_STEP_MS / 2 - into) % TOTP_STEP_MS || TOTP_STEP_MS);
}

let counter = 0;
const nextEmail = (name: string) => `${name.toLowerCase()}.${++counter}@example.com`;

/** Adds a member as the owner and walks their set-up: answers their id, email, TOTP secret and codes. */
async function setUpMember(name: string, role: "manager" | "finance" | "door") {
  const email = nextEmail(name);
  const added = await owner.postJson("/api/team", { name, email, role });
  expect(added.status).toBe(201);
  const { id } = await body<{ id: number }>(added);
  const token = setupTokenFor(email);
  const setup = await browserClient(server.url).postJson("/api/team-setup", { token, password: MEMBER_PASSWORD });
  expect(setup.status).toBe(200);
  const secret = secretOf((await body<{ otpauthUri: string }>(setup)).otpauthUri);
  const confirm = await browserClient(server.url).postJson("/api/team-setup-totp", {
    token,
    code: totpCode(secret, server.deps.now()),
  });
  expect(confirm.status).toBe(200);
  const { recoveryCodes: codes } = await body<{ recoveryCodes: string[] }>(confirm);
  // The next code is a later step: move on one step so a sign-in right after has a fresh code.
  server.advance(TOTP_STEP_MS);
  return { id, email, token, secret, codes };
}

async function signIn(email: string, code: string, password = MEMBER_PASSWORD) {
  const browser = browserClient(server.url);
  const response = await browser.postJson("/api/team-login", { email, password, code });
  return { browser, response, reply: await body(response) };
}

describe("adding a member", () => {
  it("answers 201 {id}, emails a set-up link to /admin/setup, and lists them as invited", async () => {
    const email = nextEmail("Priya");
    const response = await owner.postJson("/api/team", { name: "Priya", email: email.toUpperCase(), role: "finance" });
    expect(response.status).toBe(201);
    const { id } = await body<{ id: number }>(response);
    const mail = server.deps.db.select().from(outboxMessages).where(eq(outboxMessages.to, email)).get();
    expect(mail).toMatchObject({ channel: "email", subject: "Set up your sign-in for Saathi Test Nights" });
    expect(mail?.body).toContain(`${server.deps.env.PUBLIC_BASE_URL}/admin/setup?t=`);
    expect(mail?.body).toContain("as Finance");
    // Transactional: it offers nothing and carries no unsubscribe.
    expect(mail?.purpose).not.toBe("marketing");

    const list = await body<Record<string, unknown>[]>(await owner.get("/api/team"));
    expect(list.find((m) => m.id === id)).toEqual({
      id,
      name: "Priya",
      email,
      role: "finance",
      status: "invited",
      signIn: [],
      lastSignInAt: null,
    });
  });

  it("refuses a second member with the same email (409 email_taken) and bad fields (400)", async () => {
    const email = nextEmail("Dup");
    expect((await owner.postJson("/api/team", { name: "One", email, role: "door" })).status).toBe(201);
    const again = await owner.postJson("/api/team", { name: "Two", email: email.toUpperCase(), role: "door" });
    expect(again.status).toBe(409);
    expect(await body(again)).toMatchObject({ code: "email_taken" });
    for (const bad of [
      { name: "", email: nextEmail("x"), role: "door" },
      { name: "X", email: "not-an-email", role: "door" },
      { name: "X", email: nextEmail("x"), role: "owner" },
      { name: "X", email: nextEmail("x") },
    ]) {
      const response = await owner.postJson("/api/team", bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(await body(response)).toMatchObject({ code: "invalid_request" });
    }
  });
});

describe("the set-up link", () => {
  it("sets a password (at least 12 characters) and an authenticator app, then answers ten recovery codes once", async () => {
    const email = nextEmail("Arun");
    await owner.postJson("/api/team", { name: "Arun", email, role: "manager" });
    const token = setupTokenFor(email);
    const anon = browserClient(server.url);

    const short = await anon.postJson("/api/team-setup", { token, password: "too short" });
    expect(short.status).toBe(400);
    expect((await body<{ error: string }>(short)).error).toMatch(/at least 12 characters/);

    const setup = await anon.postJson("/api/team-setup", { token, password: MEMBER_PASSWORD });
    expect(setup.status).toBe(200);
    const { otpauthUri } = await body<{ otpauthUri: string }>(setup);
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(otpauthUri).searchParams.get("issuer")).toBe("Saathi Test Nights");
    const secret = secretOf(otpauthUri);

    // Kept encrypted with a key from SESSION_SECRET, never as the secret itself.
    const row = server.deps.db.select().from(teamMembers).where(eq(teamMembers.email, email)).get()!;
    expect(row.totpSecret).not.toContain(secret);
    expect(decryptSecret(server.deps.env.SESSION_SECRET, row.totpSecret)).toBe(secret);
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(row.passwordHash).not.toContain(MEMBER_PASSWORD);

    const wrong = await anon.postJson("/api/team-setup-totp", { token, code: "000000" });
    expect(wrong.status).toBe(400);
    expect(await body(wrong)).toMatchObject({ code: "wrong_code" });

    const confirm = await anon.postJson("/api/team-setup-totp", { token, code: totpCode(secret, server.deps.now()) });
    expect(confirm.status).toBe(200);
    const { recoveryCodes: codes } = await body<{ recoveryCodes: string[] }>(confirm);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // Stored only as hashes.
    const stored = server.deps.db.select().from(recoveryCodes).where(eq(recoveryCodes.memberId, row.id)).all();
    expect(stored).toHaveLength(10);
    expect(stored.some((r) => codes.some((code) => r.codeHash.includes(code.replace("-", ""))))).toBe(false);

    // Used: the link opens nothing more.
    for (const call of [
      anon.postJson("/api/team-setup", { token, password: MEMBER_PASSWORD }),
      anon.postJson("/api/team-setup-totp", { token, code: totpCode(secret, server.deps.now()) }),
    ]) {
      const response = await call;
      expect(response.status).toBe(410);
      expect(await body(response)).toMatchObject({ code: "setup_link_invalid" });
    }
    const list = await body<{ id: number; status: string; signIn: string[] }[]>(await owner.get("/api/team"));
    expect(list.find((m) => m.id === row.id)).toMatchObject({ status: "active", signIn: ["totp"] });

    // A passkey (the passkeys table, api/organiser/passkey*.ts) is listed first.
    server.deps.db
      .insert(passkeys)
      .values({ id: `cred-${row.id}`, memberId: row.id, publicKey: "cose-key" })
      .run();
    const again = await body<{ id: number; signIn: string[] }[]>(await owner.get("/api/team"));
    expect(again.find((m) => m.id === row.id)?.signIn).toEqual(["passkey", "totp"]);
  });

  it("is dead after 72 hours, after a resend (the new one works) and after removal; an unknown token is the same 410", async () => {
    const anon = browserClient(server.url);
    const setup = (token: string) => anon.postJson("/api/team-setup", { token, password: MEMBER_PASSWORD });

    const late = nextEmail("Late");
    await owner.postJson("/api/team", { name: "Late", email: late, role: "door" });
    const lateToken = setupTokenFor(late);
    server.advance(72 * HOUR + MINUTE);
    expect((await setup(lateToken)).status).toBe(410);
    // The owner's session (12 hours) ended meanwhile too.
    expect((await owner.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);

    const resent = nextEmail("Resent");
    const { id } = await body<{ id: number }>(
      await owner.postJson("/api/team", { name: "Re", email: resent, role: "door" }),
    );
    const first = setupTokenFor(resent);
    expect((await owner.postJson("/api/team-resend", { id })).status).toBe(200);
    const second = setupTokenFor(resent);
    expect(second).not.toBe(first);
    expect((await setup(first)).status).toBe(410);
    expect((await setup(second)).status).toBe(200);

    const removed = nextEmail("Gone");
    const gone = await body<{ id: number }>(
      await owner.postJson("/api/team", { name: "Gone", email: removed, role: "door" }),
    );
    const goneToken = setupTokenFor(removed);
    expect((await owner.postJson("/api/team-remove", { id: gone.id })).status).toBe(200);
    const dead = await setup(goneToken);
    expect(dead.status).toBe(410);
    expect(await body(dead)).toMatchObject({ code: "setup_link_invalid" });

    expect((await setup("x".repeat(43))).status).toBe(410);
    expect((await owner.postJson("/api/team-resend", { id: 987_654 })).status).toBe(404);
  });
});

describe("a member's sign-in", () => {
  it("takes email, password and an authenticator code: 200 with the sdt_admin cookie, the session naming the member", async () => {
    const m = await setUpMember("Meera", "manager");
    const { browser, response } = await signIn(m.email.toUpperCase(), totpCode(m.secret, server.deps.now()));
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().join()).toMatch(/^sdt_admin=/);
    expect(await body(await browser.get("/api/admin-session"))).toEqual({
      admin: true,
      member: { id: m.id, name: "Meera", role: "manager" },
    });
    expect(await body(await owner.get("/api/admin-session"))).toEqual({ admin: true, member: null });
    expect(await body(await browserClient(server.url).get("/api/admin-session"))).toEqual({
      admin: false,
      member: null,
    });
    const list = await body<{ id: number; lastSignInAt: string | null }[]>(await owner.get("/api/team"));
    const at = Date.parse(list.find((x) => x.id === m.id)?.lastSignInAt ?? "");
    expect(server.deps.now() - at).toBeGreaterThanOrEqual(0);
    expect(server.deps.now() - at).toBeLessThan(60_000);
  });

  it("refuses a code used twice, takes ±1 step, and refuses two steps away", async () => {
    const m = await setUpMember("Tara", "door");
    midStep();
    const code = totpCode(m.secret, server.deps.now());
    expect((await signIn(m.email, code)).response.status).toBe(200);
    const twice = await signIn(m.email, code);
    expect(twice.response.status).toBe(401);
    expect(twice.reply).toMatchObject({ code: "invalid_credentials" });

    // One step later, the app's next code and the one before it are both fine once.
    server.advance(TOTP_STEP_MS);
    expect((await signIn(m.email, totpCode(m.secret, server.deps.now() + TOTP_STEP_MS))).response.status).toBe(200);
    server.advance(3 * TOTP_STEP_MS);
    // A phone a step slow: the code of the step before is still taken.
    expect((await signIn(m.email, totpCode(m.secret, server.deps.now() - TOTP_STEP_MS))).response.status).toBe(200);
    server.advance(3 * TOTP_STEP_MS);
    // Two steps away, either side: refused.
    expect((await signIn(m.email, totpCode(m.secret, server.deps.now() - 2 * TOTP_STEP_MS))).response.status).toBe(401);
    expect((await signIn(m.email, totpCode(m.secret, server.deps.now() + 2 * TOTP_STEP_MS))).response.status).toBe(401);
  });

  it("takes a recovery code once, and answers the same 401 for a wrong password, an unknown email or a wrong code", async () => {
    const m = await setUpMember("Kabir", "finance");
    const code = m.codes[3]!;
    expect((await signIn(m.email, code.toUpperCase())).response.status).toBe(200);
    expect((await signIn(m.email, code)).response.status).toBe(401);
    for (const [email, password, c] of [
      [m.email, "the wrong password!", totpCode(m.secret, server.deps.now())],
      ["nobody@example.com", MEMBER_PASSWORD, "123456"],
      [m.email, MEMBER_PASSWORD, "000000"],
    ] as const) {
      const { response, reply } = await signIn(email, c, password);
      expect(response.status).toBe(401);
      expect(reply).toEqual({ success: false, error: "Invalid credentials", code: "invalid_credentials" });
    }
  });
});

describe("locks that lock the right person", () => {
  it("locks one member's account after 5 wrong tries (429 account_locked, even with everything right) and emails them; the next member on the same Wi-Fi still signs in", async () => {
    // A window of its own: the suite's earlier failures came from this same address.
    server.advance(15 * MINUTE + 1000);
    const locked = await setUpMember("Lena", "door");
    const other = await setUpMember("Omar", "door");
    for (let i = 0; i < 5; i++) {
      expect((await signIn(locked.email, "000000", `wrong password ${i}`)).response.status).toBe(401);
    }
    const right = await signIn(locked.email, totpCode(locked.secret, server.deps.now()));
    expect(right.response.status).toBe(429);
    expect(right.reply).toMatchObject({ code: "account_locked" });
    const emails = server.deps.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.to, locked.email), like(outboxMessages.subject, "%locked%")))
      .all();
    expect(emails).toHaveLength(1);
    expect(emails[0]?.body).toContain("5 wrong passwords or codes");

    // Same address, another account: not locked.
    expect((await signIn(other.email, totpCode(other.secret, server.deps.now()))).response.status).toBe(200);
    // Nor is the owner.
    expect((await browserClient(server.url).postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);

    server.advance(15 * MINUTE + 1000);
    expect((await signIn(locked.email, totpCode(locked.secret, server.deps.now()))).response.status).toBe(200);
  });

  it("lets a whole team on one venue's Wi-Fi get a few wrong and still sign in: 40 failures from one address lock no one else", {
    timeout: 60_000,
  }, async () => {
    server.advance(15 * MINUTE + 1000);
    // Ten members set up straight in the table (the set-up link is tested above): one password hash
    // and one app secret for all, to spend the time on the sign-ins.
    const { db, env } = server.deps;
    const passwordHash = await hashPassword(MEMBER_PASSWORD);
    const secret = newTotpSecret();
    const team = Array.from({ length: 10 }, (_, i) => {
      const email = nextEmail(`Wifi${i}`);
      db.insert(teamMembers)
        .values({
          name: `Wifi ${i}`,
          email,
          role: "door",
          passwordHash,
          totpSecret: encryptSecret(env.SESSION_SECRET, secret),
          activatedAt: server.deps.now(),
        })
        .run();
      return email;
    });
    for (const email of team) {
      for (let i = 0; i < 4; i++) expect((await signIn(email, "000000")).response.status).toBe(401);
    }
    midStep();
    // Each member's app shows the same code (one secret); each account takes it once.
    for (const email of team) {
      expect((await signIn(email, totpCode(secret, server.deps.now()))).response.status, email).toBe(200);
    }
  });
});

describe("Remove", () => {
  it("ends the member's sessions and open streams at once; their password, codes and cookie stop working, and the list drops them", async () => {
    const m = await setUpMember("Ravi", "manager");
    const { browser } = await signIn(m.email, totpCode(m.secret, server.deps.now()));
    const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, {
      status: "started",
      startsAt: server.deps.now() - 30 * MINUTE,
    });
    expect((await browser.get("/api/admin-events")).status).toBe(200);
    const stream = await browser.get(`/api/round-events?eventID=${event.id}`);
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read();

    expect((await owner.postJson("/api/team-remove", { id: m.id })).status).toBe(200);
    // The stream ends (done) rather than waiting for the next heartbeat.
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect((await browser.get("/api/admin-events")).status).toBe(401);
    expect(await body(await browser.get("/api/admin-session"))).toEqual({ admin: false, member: null });
    server.advance(TOTP_STEP_MS);
    expect((await signIn(m.email, totpCode(m.secret, server.deps.now()))).response.status).toBe(401);
    expect((await signIn(m.email, m.codes[0]!)).response.status).toBe(401);
    const list = await body<{ id: number }[]>(await owner.get("/api/team"));
    expect(list.map((x) => x.id)).not.toContain(m.id);
    expect((await owner.postJson("/api/team-remove", { id: m.id })).status).toBe(404);
    // The row stays for Activity, with every secret dropped.
    const row = server.deps.db.select().from(teamMembers).where(eq(teamMembers.id, m.id)).get();
    expect(row).toMatchObject({ name: "Ravi", passwordHash: null, totpSecret: null, setupTokenHash: null });
    // The address may be added again.
    expect((await owner.postJson("/api/team", { name: "Ravi", email: m.email, role: "door" })).status).toBe(201);
  });
});

describe("Sign out everywhere", () => {
  it("ends every session of the caller (no id), or of the member the owner names; a member may not name another", async () => {
    const m = await setUpMember("Sana", "finance");
    const n = await setUpMember("Noor", "finance");
    const first = (await signIn(m.email, totpCode(m.secret, server.deps.now()))).browser;
    server.advance(TOTP_STEP_MS);
    const second = (await signIn(m.email, totpCode(m.secret, server.deps.now()))).browser;
    const noor = sessionBrowser(server, n.id);

    const other = await first.postJson("/api/sign-out-everywhere", { id: n.id });
    expect(other.status).toBe(403);
    expect((await noor.get("/api/admin-events")).status).toBe(200);

    expect((await first.postJson("/api/sign-out-everywhere", {})).status).toBe(200);
    expect((await first.get("/api/admin-events")).status).toBe(401);
    expect((await second.get("/api/admin-events")).status).toBe(401);
    expect((await noor.get("/api/admin-events")).status).toBe(200);

    expect((await owner.postJson("/api/sign-out-everywhere", { id: n.id })).status).toBe(200);
    expect((await noor.get("/api/admin-events")).status).toBe(401);
    expect((await owner.get("/api/admin-events")).status).toBe(200);
    expect((await owner.postJson("/api/sign-out-everywhere", { id: 987_654 })).status).toBe(404);

    // The owner's own: every owner session ends, and the streams they opened; members' stay.
    const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, {
      status: "started",
      startsAt: server.deps.now() - 30 * MINUTE,
    });
    const stream = await owner.get(`/api/round-events?eventID=${event.id}`);
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read();
    const another = sessionBrowser(server, null);
    const member = sessionBrowser(server, n.id);
    expect((await another.postJson("/api/sign-out-everywhere", {})).status).toBe(200);
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect((await owner.get("/api/admin-events")).status).toBe(401);
    expect((await member.get("/api/admin-events")).status).toBe(200);
    expect((await owner.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
  });
});

describe("the owner's second factor", () => {
  it("is off by default; on only with an app or a passkey; then the password alone is 401 second_factor_required", async () => {
    expect(await body(await owner.get("/api/owner-security"))).toEqual({
      requireSecondFactor: false,
      passkeys: 0,
      totp: false,
    });
    const early = await owner.postJson("/api/owner-second-factor", { required: true });
    expect(early.status).toBe(409);
    expect(await body(early)).toMatchObject({ code: "no_second_factor" });

    const started = await owner.request("/api/owner-totp", { method: "POST" });
    expect(started.status).toBe(200);
    const secret = secretOf((await body<{ otpauthUri: string }>(started)).otpauthUri);
    expect((await owner.postJson("/api/owner-totp-confirm", { code: "000000" })).status).toBe(400);
    const confirmed = await owner.postJson("/api/owner-totp-confirm", { code: totpCode(secret, server.deps.now()) });
    expect(confirmed.status).toBe(200);
    const { recoveryCodes: codes } = await body<{ recoveryCodes: string[] }>(confirmed);
    expect(codes).toHaveLength(10);
    expect((await owner.request("/api/owner-totp", { method: "POST" })).status).toBe(409);
    const sealed = server.deps.db.select().from(ownerSecurity).get()?.totpSecret ?? "";
    expect(sealed).not.toContain(secret);

    const on = await owner.postJson("/api/owner-second-factor", { required: true });
    expect(await body(on)).toEqual({ requireSecondFactor: true, passkeys: 0, totp: true });

    const login = (extra: Record<string, unknown> = {}) =>
      browserClient(server.url).postJson("/api/admin-login", { password: PASSWORD, ...extra });
    const alone = await login();
    expect(alone.status).toBe(401);
    expect(await body(alone)).toMatchObject({ code: "second_factor_required" });
    server.advance(TOTP_STEP_MS);
    expect((await login({ code: totpCode(secret, server.deps.now()) })).status).toBe(200);
    expect((await login({ code: totpCode(secret, server.deps.now()) })).status).toBe(401);
    expect((await login({ code: codes[0] })).status).toBe(200);
    expect((await login({ code: codes[0] })).status).toBe(401);
    const wrongPassword = await browserClient(server.url).postJson("/api/admin-login", {
      password: "not it",
      code: codes[1],
    });
    expect(await body(wrongPassword)).toMatchObject({ code: "invalid_credentials" });

    const off = await owner.postJson("/api/owner-second-factor", { required: false });
    expect(await body(off)).toMatchObject({ requireSecondFactor: false });
    expect((await login()).status).toBe(200);

    // A passkey of the owner's counts as a second factor too.
    server.deps.db.insert(passkeys).values({ id: "owner-cred", memberId: null, publicKey: "cose-key" }).run();
    expect(await body(await owner.get("/api/owner-security"))).toEqual({
      requireSecondFactor: false,
      passkeys: 1,
      totp: true,
    });
  });

  it("locks the owner's password after 5 wrong tries (429 account_locked, even to the right one), logged and emailed to ORGANISER_EMAIL", async () => {
    server.advance(15 * MINUTE + 1000);
    const anon = browserClient(server.url);
    for (let i = 0; i < 5; i++)
      expect((await anon.postJson("/api/admin-login", { password: `no ${i}` })).status).toBe(401);
    const right = await anon.postJson("/api/admin-login", { password: PASSWORD });
    expect(right.status).toBe(429);
    expect(await body(right)).toMatchObject({ code: "account_locked" });
    expect(logs.some((line) => line.includes("owner account locked"))).toBe(true);
    const told = server.deps.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.to, "owner@saathi.example"), like(outboxMessages.subject, "%locked%")))
      .all();
    expect(told).toHaveLength(1);
    expect(told[0]?.body).toContain("5 wrong passwords or codes for the owner's Saathi Test Nights sign-in");
    expect(told[0]?.body).toContain("Team members' sign-ins are not affected.");
    server.advance(15 * MINUTE + 1000);
    expect((await anon.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
  });
});

describe("who did what", () => {
  it("names a member in Activity: `Priya (Finance)` refunded the guest", async () => {
    const { db, env } = server.deps;
    const m = await setUpMember("Priya", "finance");
    const event = await insertEvent(db, env.UPLOADS_DIR, { startsAt: server.deps.now() + 7 * 24 * HOUR });
    const [guest] = insertPaidBookings(db, event.id, 1, { paidAt: server.deps.now() - HOUR, name: "Arjun Mehta" });
    const pi = `pi_local_team_${guest!.bookingId}`;
    db.update(bookings).set({ paymentIntentId: pi }).where(eq(bookings.id, guest!.bookingId)).run();
    const priya = (await signIn(m.email, totpCode(m.secret, server.deps.now()))).browser;
    expect((await priya.postJson("/api/refund", { paymentIntentId: pi })).status).toBe(200);
    const rows = await json<{ action: string; actor: string; actorKind: string; person: { name: string } | null }[]>(
      await owner.get(`/api/admin-event/${event.id}/activity`),
    );
    expect(rows.find((r) => r.action === "refund")).toMatchObject({
      actor: "Priya (Finance)",
      actorKind: "member",
      person: { name: "Arjun Mehta" },
    });
    expect(db.select().from(users).where(eq(users.id, guest!.userId)).get()?.name).toBe("Arjun Mehta");
  });
});

describe("secrets", () => {
  it("are in no reply, log line or download: password hashes, TOTP secrets, recovery codes after their one reply, set-up tokens", async () => {
    const m = await setUpMember("Zara", "manager");
    const { db, env } = server.deps;
    // Replies that list or describe people after the set-ups above.
    for (const path of ["/api/team", "/api/admin-session", "/api/owner-security"]) await body(await owner.get(path));
    expect((await signIn(m.email, totpCode(m.secret, server.deps.now()))).response.status).toBe(200);
    // The downloads: an event's participants (and CSV) for the organiser, Download my data for a guest.
    const event = await insertEvent(db, env.UPLOADS_DIR, { startsAt: server.deps.now() + 7 * 24 * HOUR });
    const [guest] = insertPaidBookings(db, event.id, 1, { paidAt: server.deps.now() - HOUR });
    seen.push(await (await owner.get(`/api/admin-event/${event.id}/participants.csv`)).text());
    seen.push(await (await owner.get(`/api/get-event-user/${event.id}`)).text());
    seen.push(await (await guestBrowser(server, guest!.phone).get("/api/me-data")).text());

    const secrets: string[] = [];
    for (const row of db.select().from(teamMembers).all()) {
      if (row.passwordHash) secrets.push(row.passwordHash, row.passwordHash.split("$").at(-1)!);
      if (row.totpSecret) {
        secrets.push(row.totpSecret);
        const plain = decryptSecret(env.SESSION_SECRET, row.totpSecret);
        if (plain) secrets.push(plain);
      }
      if (row.setupTokenHash) secrets.push(row.setupTokenHash);
    }
    for (const row of db.select().from(recoveryCodes).all()) secrets.push(row.codeHash);
    const owners = db.select().from(ownerSecurity).get();
    if (owners?.totpSecret) secrets.push(owners.totpSecret, decryptSecret(env.SESSION_SECRET, owners.totpSecret) ?? "");
    // Every set-up token the outbox ever emailed, and the recovery codes (past their one reply).
    for (const mail of db.select().from(outboxMessages).all()) {
      const token = /\/admin\/setup\?t=([A-Za-z0-9_-]+)/.exec(mail.body)?.[1];
      if (token) secrets.push(token);
    }
    // The one reply that shows each: the set-up's otpauth:// link, the confirmation's recovery codes.
    const afterCodes = seen.filter((text) => !text.includes('"recoveryCodes"') && !text.includes('"otpauthUri"'));
    expect(secrets.length).toBeGreaterThan(20);
    const leaks = secrets.filter((secret) => afterCodes.some((text) => text.includes(secret)));
    expect(leaks).toEqual([]);
    expect(secrets.filter((secret) => logs.some((line) => line.includes(secret)))).toEqual([]);
    const recovery = m.codes;
    expect(recovery.filter((code) => afterCodes.some((text) => text.includes(code)))).toEqual([]);
    expect(recovery.filter((code) => logs.some((line) => line.includes(code)))).toEqual([]);
    expect(logs.filter((line) => line.includes(MEMBER_PASSWORD) || line.includes(PASSWORD))).toEqual([]);
  });
});
