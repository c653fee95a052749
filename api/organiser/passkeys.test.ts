import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { adminSessions, passkeys, teamMembers, webauthnChallenges } from "../../db/team-schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { SoftAuthenticator } from "../../test/fakes/authenticator.ts";
import { newMobile, signedInOnMe } from "../../test/suites/booking-flow.ts";
import { hostAccessHelpers, json, PASSWORD } from "../../test/suites/host-access.ts";
import { setupTokenFor as setupTokenForIn } from "../../test/suites/team.ts";
import { CHALLENGE_TTL_MS } from "./passkeys.ts";

// Passkeys (issue 49, docs/decisions/051-passkeys.md): adding one (the owner, a member signed in, a
// member finishing set-up) and signing in with one, through the calls a browser makes, with a
// software authenticator (test/fakes/authenticator.ts) in the browser's place.

/** Every log line the server wrote, to check that no challenge or key is in any. */
const logged: string[] = [];
const server = suiteTestServer({
  deps: (base) => ({
    log: (level, message, fields) => {
      logged.push(JSON.stringify({ level, message, ...fields }));
      base.log(level, message, fields);
    },
  }),
});

type ErrorBody = { success: false; error: string; code: string };

const REFUSED = "That passkey is not accepted here. Use another passkey or sign in another way.";

async function ownerBrowser(): Promise<BrowserClient> {
  const owner = browserClient(server.url);
  expect((await owner.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
  return owner;
}

async function registerOptions(client: BrowserClient, body: Record<string, unknown> = { token: null }) {
  const reply = await client.postJson("/api/passkey-register-options", body);
  expect(reply.status, await reply.clone().text()).toBe(200);
  return json<PublicKeyCredentialCreationOptionsJSON>(reply);
}

async function loginOptions(client: BrowserClient) {
  const reply = await client.request("/api/passkey-login-options", { method: "POST" });
  expect(reply.status).toBe(200);
  return json<PublicKeyCredentialRequestOptionsJSON>(reply);
}

/** Adds a passkey on `device` for whoever `client` is signed in as. */
async function addPasskey(client: BrowserClient, device: SoftAuthenticator) {
  const response = device.register(await registerOptions(client));
  const reply = await client.postJson("/api/passkey-register", { token: null, response });
  expect(reply.status, await reply.clone().text()).toBe(200);
  expect(await reply.json()).toEqual({ success: true });
  return response.id;
}

/** A fresh browser's passkey sign-in with `device`: the reply and the browser. */
async function signIn(device: SoftAuthenticator, key?: SoftAuthenticator["keys"][number]) {
  const browser = browserClient(server.url);
  const response = device.signIn(await loginOptions(browser), { key });
  const reply = await browser.postJson("/api/passkey-login", { response });
  return { reply, browser, response };
}

/** The admin session's id a browser's `sdt_admin` cookie carries (`base64url(id).expiry.signature`). */
const sessionIdOf = (client: BrowserClient) =>
  Buffer.from((client.jar.get("sdt_admin") ?? "").split(".")[0] ?? "", "base64url").toString();

const session = async (client: BrowserClient) => json<{ admin: boolean }>(await client.get("/api/admin-session"));

describe("the owner's passkey", () => {
  let owner: BrowserClient;
  let device: SoftAuthenticator;

  beforeAll(async () => {
    owner = await ownerBrowser();
    device = new SoftAuthenticator(server.url);
  });

  it("is offered as a discoverable credential for this site, named Owner", async () => {
    const options = await registerOptions(owner);
    expect(options).toEqual(
      expect.objectContaining({
        rp: { name: server.deps.env.BUSINESS_NAME, id: "127.0.0.1" },
        user: expect.objectContaining({ name: "Owner", displayName: "Owner" }),
        challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        authenticatorSelection: expect.objectContaining({ residentKey: "required", userVerification: "preferred" }),
        excludeCredentials: [],
        attestation: "none",
      }),
    );
    expect(options.pubKeyCredParams).toContainEqual({ alg: -7, type: "public-key" });
  });

  it("is saved, then excluded from the next registration's options, and signs the owner in", async () => {
    const id = await addPasskey(owner, device);
    const stored = server.deps.db.select().from(passkeys).where(eq(passkeys.id, id)).get();
    expect(stored).toEqual(expect.objectContaining({ memberId: null, counter: 0, transports: '["internal"]' }));
    expect((await registerOptions(owner)).excludeCredentials).toEqual([
      { id, type: "public-key", transports: ["internal"] },
    ]);

    const { reply, browser } = await signIn(device);
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ success: true });
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(await session(browser)).toEqual(expect.objectContaining({ admin: true }));
    // Whose session: the owner's (no member), and the passkey's counter moved on.
    const row = server.deps.db
      .select()
      .from(adminSessions)
      .where(eq(adminSessions.id, sessionIdOf(browser)))
      .get();
    expect(row).toEqual(expect.objectContaining({ memberId: null, revokedAt: null }));
    expect(server.deps.db.select().from(passkeys).where(eq(passkeys.id, id)).get()).toEqual(
      expect.objectContaining({ counter: 1, lastUsedAt: expect.any(Number) }),
    );
  });

  it("sign-in options ask for no email and list no credentials: the browser offers its own", async () => {
    const options = await loginOptions(browserClient(server.url));
    expect(options).toEqual(
      expect.objectContaining({
        rpId: "127.0.0.1",
        challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        userVerification: "preferred",
      }),
    );
    expect(options.allowCredentials ?? []).toEqual([]);
  });
});

describe("challenges", () => {
  let owner: BrowserClient;
  const device = () => new SoftAuthenticator(server.url);

  beforeAll(async () => {
    owner = await ownerBrowser();
  });

  it("are answered once: a sign-in or a registration sent again is refused", async () => {
    const phone = device();
    await addPasskey(owner, phone);
    const { reply, response } = await signIn(phone);
    expect(reply.status).toBe(200);
    const again = await browserClient(server.url).postJson("/api/passkey-login", { response });
    expect(again.status).toBe(401);
    expect(await json<ErrorBody>(again)).toEqual(expect.objectContaining({ code: "invalid_credentials" }));

    const registration = phone.register(await registerOptions(owner));
    expect((await owner.postJson("/api/passkey-register", { token: null, response: registration })).status).toBe(200);
    const replayed = await owner.postJson("/api/passkey-register", { token: null, response: registration });
    expect(replayed.status).toBe(400);
    expect((await json<ErrorBody>(replayed)).error).toBe(
      "This passkey request has expired or was already used. Start again with Add a passkey.",
    );
  });

  it("expire after 5 minutes", async () => {
    const phone = device();
    await addPasskey(owner, phone);
    const browser = browserClient(server.url);
    const late = phone.signIn(await loginOptions(browser));
    const lateRegistration = phone.register(await registerOptions(owner));
    server.advance(CHALLENGE_TTL_MS + 1);
    const reply = await browser.postJson("/api/passkey-login", { response: late });
    expect(reply.status).toBe(401);
    expect(await json<ErrorBody>(reply)).toEqual(expect.objectContaining({ code: "invalid_credentials" }));
    expect(await session(browser)).toEqual(expect.objectContaining({ admin: false }));
    expect((await owner.postJson("/api/passkey-register", { token: null, response: lateRegistration })).status).toBe(
      400,
    );
    // Past their time they are swept when the next one is made.
    await loginOptions(browser);
    const live = server.deps.db.select().from(webauthnChallenges).all();
    expect(live.every((row) => row.expiresAt > server.deps.now())).toBe(true);
  });

  it("are kept for one purpose: a sign-in's challenge does not register a passkey, nor the reverse", async () => {
    const phone = device();
    await addPasskey(owner, phone);
    const signInOptions = await loginOptions(owner);
    const asRegistration = phone.register({ ...(await registerOptions(owner)), challenge: signInOptions.challenge });
    expect((await owner.postJson("/api/passkey-register", { token: null, response: asRegistration })).status).toBe(400);

    const registration = await registerOptions(owner);
    const asSignIn = phone.signIn({ challenge: registration.challenge });
    const reply = await browserClient(server.url).postJson("/api/passkey-login", { response: asSignIn });
    expect(reply.status).toBe(401);
  });

  it("are signed for this site only: an answer from another origin is refused", async () => {
    const phone = device();
    await addPasskey(owner, phone);
    const browser = browserClient(server.url);
    const response = phone.signIn(await loginOptions(browser), { origin: "https://phish.example" });
    expect((await browser.postJson("/api/passkey-login", { response })).status).toBe(401);
    const registration = phone.register(await registerOptions(owner), { origin: "https://phish.example" });
    expect((await owner.postJson("/api/passkey-register", { token: null, response: registration })).status).toBe(400);
  });
});

describe("sign-in refusals", () => {
  it("refuse a passkey we do not hold (another device's) with 401 invalid_credentials and no session", async () => {
    const stranger = new SoftAuthenticator(server.url);
    const { reply, browser } = await signIn(stranger, stranger.strangerKey());
    expect(reply.status).toBe(401);
    expect(await json<ErrorBody>(reply)).toEqual({ success: false, error: REFUSED, code: "invalid_credentials" });
    expect(reply.headers.getSetCookie()).toEqual([]);
    expect(await session(browser)).toEqual(expect.objectContaining({ admin: false }));
  });

  it("refuse a known passkey whose signature is not its own", async () => {
    const owner = await ownerBrowser();
    const phone = new SoftAuthenticator(server.url);
    const id = await addPasskey(owner, phone);
    // Another key signs, claiming the saved passkey's id.
    const forged = { ...phone.strangerKey(), id };
    const { reply } = await signIn(phone, forged);
    expect(reply.status).toBe(401);
  });

  it("answer malformed answers with 400, never a 5xx", async () => {
    const browser = browserClient(server.url);
    for (const body of [{}, { response: {} }, { response: { id: "!!", rawId: "x", type: "public-key" } }]) {
      const reply = await browser.postJson("/api/passkey-login", body);
      expect(reply.status).toBe(400);
      expect(await json<ErrorBody>(reply)).toEqual(expect.objectContaining({ code: "invalid_request" }));
    }
    const garbled = {
      id: "abc",
      rawId: "abc",
      type: "public-key",
      response: { clientDataJSON: "bm90IGpzb24", authenticatorData: "AAAA", signature: "AAAA" },
      clientExtensionResults: {},
    };
    expect((await browser.postJson("/api/passkey-login", { response: garbled })).status).toBe(401);
  });
});

const setupTokenFor = (email: string) => setupTokenForIn(server.deps.db, email);

let added = 0;

/** The owner adds a member (POST /api/team): their id, email and set-up link's token. */
async function newMember(name: string, role: "manager" | "finance" | "door" = "finance") {
  const email = `${name.toLowerCase()}.${++added}@example.com`;
  const reply = await (await ownerBrowser()).postJson("/api/team", { name, email, role });
  expect(reply.status, await reply.clone().text()).toBe(201);
  const { id } = await json<{ id: number }>(reply);
  return { id, email, token: setupTokenFor(email) };
}

/** A member who finished set-up with a passkey on `device` from their link: their id and email. */
async function memberWithPasskey(name: string, device: SoftAuthenticator) {
  const member = await newMember(name);
  const browser = browserClient(server.url);
  const response = device.register(await registerOptions(browser, { token: member.token }));
  const reply = await browser.postJson("/api/passkey-register", { token: member.token, response });
  expect(reply.status, await reply.clone().text()).toBe(200);
  return { ...member, recoveryCodes: (await json<{ recoveryCodes: string[] }>(reply)).recoveryCodes };
}

describe("a member's passkey", () => {
  it("finishes set-up from the link: options in the member's email, ten recovery codes, the link used up", async () => {
    const member = await newMember("Priya");
    const browser = browserClient(server.url);
    const options = await registerOptions(browser, { token: member.token });
    expect(options.user).toEqual(expect.objectContaining({ name: member.email, displayName: "Priya" }));
    expect(options.excludeCredentials).toEqual([]);
    const device = new SoftAuthenticator(server.url);
    const response = device.register(options);
    const reply = await browser.postJson("/api/passkey-register", { token: member.token, response });
    expect(reply.status).toBe(200);
    const { recoveryCodes } = await json<{ recoveryCodes: string[] }>(reply);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    // Setting up signs nobody in: the member signs in next, with the passkey.
    expect(reply.headers.getSetCookie()).toEqual([]);

    const row = server.deps.db.select().from(teamMembers).where(eq(teamMembers.id, member.id)).get();
    expect(row).toEqual(expect.objectContaining({ activatedAt: expect.any(Number), setupTokenHash: null }));
    expect(server.deps.db.select().from(passkeys).where(eq(passkeys.id, response.id)).get()?.memberId).toBe(member.id);
    // The link is used up: neither call opens anything with it again.
    const again = await browser.postJson("/api/passkey-register-options", { token: member.token });
    expect(again.status).toBe(410);
    expect(await json<ErrorBody>(again)).toEqual(expect.objectContaining({ code: "setup_link_invalid" }));
    const team = await json<{ id: number; status: string; signIn: string[] }[]>(
      await (await ownerBrowser()).get("/api/team"),
    );
    expect(team.find((m) => m.id === member.id)).toEqual(
      expect.objectContaining({ status: "active", signIn: ["passkey"] }),
    );
  });

  it("signs the member in as themselves (Last sign-in set), who may then add another passkey", async () => {
    const device = new SoftAuthenticator(server.url);
    const member = await memberWithPasskey("Dev", device);
    const { reply, browser } = await signIn(device);
    expect(reply.status).toBe(200);
    expect(await session(browser)).toEqual(
      expect.objectContaining({ admin: true, member: { id: member.id, name: "Dev", role: "finance" } }),
    );
    const row = server.deps.db
      .select()
      .from(adminSessions)
      .where(eq(adminSessions.id, sessionIdOf(browser)))
      .get();
    expect(row?.memberId).toBe(member.id);
    const signedInAt = server.deps.db.select().from(teamMembers).where(eq(teamMembers.id, member.id)).get();
    expect(signedInAt?.lastSignInAt).toEqual(expect.any(Number));

    const options = await registerOptions(browser);
    expect(options.user.name).toBe(member.email);
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([device.keys[0]?.id]);
    const laptop = new SoftAuthenticator(server.url);
    await addPasskey(browser, laptop);
    expect((await signIn(laptop)).reply.status).toBe(200);
  });

  it("cannot be started for one person and finished for another", async () => {
    const a = await newMember("Asha");
    const b = await newMember("Kabir");
    const device = new SoftAuthenticator(server.url);
    const forA = device.register(await registerOptions(browserClient(server.url), { token: a.token }));
    const asB = await browserClient(server.url).postJson("/api/passkey-register", { token: b.token, response: forA });
    expect(asB.status).toBe(400);
    // Nor the owner's challenge for a member's set-up, nor a member's for the owner.
    const owner = await ownerBrowser();
    const forOwner = device.register(await registerOptions(owner));
    const ownersAsB = await browserClient(server.url).postJson("/api/passkey-register", {
      token: b.token,
      response: forOwner,
    });
    expect(ownersAsB.status).toBe(400);
    const forB = device.register(await registerOptions(browserClient(server.url), { token: b.token }));
    expect((await owner.postJson("/api/passkey-register", { token: null, response: forB })).status).toBe(400);
    // Nothing was saved, and both links still work.
    expect(
      server.deps.db
        .select()
        .from(passkeys)
        .all()
        .filter((k) => k.memberId === a.id || k.memberId === b.id),
    ).toEqual([]);
    expect((await browserClient(server.url).postJson("/api/passkey-register-options", { token: b.token })).status).toBe(
      200,
    );
  });

  it("stops working when the member is removed: 401 invalid_credentials, like a passkey we do not hold", async () => {
    const device = new SoftAuthenticator(server.url);
    const member = await memberWithPasskey("Zara", device);
    expect((await signIn(device)).reply.status).toBe(200);
    const removed = await (await ownerBrowser()).postJson("/api/team-remove", { id: member.id });
    expect(removed.status).toBe(200);
    const { reply, browser } = await signIn(device);
    expect(reply.status).toBe(401);
    expect(await json<ErrorBody>(reply)).toEqual(
      expect.objectContaining({ code: "invalid_credentials", error: REFUSED }),
    );
    expect(await session(browser)).toEqual(expect.objectContaining({ admin: false }));
  });

  it("of a member not active (removed, its passkey row left behind) is refused all the same", async () => {
    const device = new SoftAuthenticator(server.url);
    const member = await memberWithPasskey("Noor", device);
    // Removal deletes the passkeys too; this is the check behind it, should a row ever be left.
    server.deps.db.update(teamMembers).set({ removedAt: server.deps.now() }).where(eq(teamMembers.id, member.id)).run();
    const { reply } = await signIn(device);
    expect(reply.status).toBe(401);
    expect(logged.some((line) => line.includes("member not active"))).toBe(true);
  });
});

describe("who may add a passkey", () => {
  const { night, newLink, hostPhone } = hostAccessHelpers(server, () => organiser);
  let organiser: BrowserClient;

  beforeAll(async () => {
    organiser = await ownerBrowser();
  });

  it("nobody: 401; a host link's phone or a guest's /me session: 403; nothing is kept", async () => {
    // A well-formed answer (to the owner's challenge), so each refusal is about who sends it.
    const response = new SoftAuthenticator(server.url).register(await registerOptions(organiser));
    const before = server.deps.db.select().from(webauthnChallenges).all();
    const anon = browserClient(server.url);
    const { phone: host } = await hostPhone(await newLink((await night(2)).event.id));
    const guest = await signedInOnMe(server.url, newMobile());
    const answers: Record<string, string[]> = {};
    for (const [name, client] of Object.entries({ anon, host, guest })) {
      const options = await client.postJson("/api/passkey-register-options", { token: null });
      const register = await client.postJson("/api/passkey-register", { token: null, response });
      answers[name] = [
        `${options.status} ${(await json<ErrorBody>(options)).code}`,
        `${register.status} ${(await json<ErrorBody>(register)).code}`,
      ];
    }
    expect(answers).toEqual({
      anon: ["401 admin_session_required", "401 admin_session_required"],
      host: ["403 forbidden", "403 forbidden"],
      guest: ["403 forbidden", "403 forbidden"],
    });
    expect(server.deps.db.select().from(webauthnChallenges).all()).toEqual(before);
    expect(server.deps.db.select().from(passkeys).where(eq(passkeys.id, response.id)).get()).toBeUndefined();
  });
});

describe("secrets", () => {
  it("no reply carries a stored key, and no log line a challenge, a key or a credential's signature", async () => {
    const owner = await ownerBrowser();
    const device = new SoftAuthenticator(server.url);
    const options = await registerOptions(owner);
    const response = device.register(options);
    const saved = await owner.postJson("/api/passkey-register", { token: null, response });
    const loginOpts = await loginOptions(owner);
    const login = device.signIn(loginOpts);
    const signedIn = await browserClient(server.url).postJson("/api/passkey-login", { response: login });
    const stored = server.deps.db.select().from(passkeys).where(eq(passkeys.id, response.id)).get();
    expect(stored).toBeDefined();
    const replies = [JSON.stringify(await registerOptions(owner)), await saved.text(), await signedIn.text()];
    for (const text of replies) expect(text).not.toContain(stored?.publicKey);
    const log = logged.join("\n");
    for (const secret of [
      options.challenge,
      loginOpts.challenge,
      stored?.publicKey ?? "",
      login.response.signature,
      response.response.attestationObject,
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});
