import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, isPrivateOrigin, parseEnv } from "./env.ts";

const dataDir = () => mkdtempSync(join(tmpdir(), "sdt-env-"));
const problems = (raw: Record<string, string>) => {
  try {
    parseEnv({ DATABASE_PATH: join(dataDir(), "app.db"), ...raw });
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  return [];
};

/** A complete production configuration, which each test below breaks in one way. */
const production = {
  NODE_ENV: "production",
  ADMIN_PASSWORD: "a long production password",
  PUBLIC_BASE_URL: "https://tickets.example.com",
  SESSION_SECRET: "s".repeat(40),
  STRIPE_SECRET_KEY: "sk_live_x",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
  TWILIO_ACCOUNT_SID: "ACx",
  TWILIO_AUTH_TOKEN: "token",
  TWILIO_VERIFY_SERVICE_SID: "VAx",
  TWILIO_FROM: "+61400000000",
  SMTP_URL: "smtps://user:pass@smtp.example.com:465",
  MAIL_FROM: "Speed Dating <tickets@example.com>",
};

describe("configuration", () => {
  it("runs a newcomer's start with defaults, a printed admin password and a kept secret", () => {
    const dir = dataDir();
    const first = parseEnv({ DATABASE_PATH: join(dir, "app.db") });
    expect(first).toMatchObject({ PORT: 3000, PUBLIC_BASE_URL: "http://localhost:3000", adminPasswordIsDefault: true });
    expect(first.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    // The generated secret is kept, so cookies and texted links survive a restart.
    expect(parseEnv({ DATABASE_PATH: join(dir, "app.db") }).SESSION_SECRET).toBe(first.SESSION_SECRET);
    // It signs every cookie and link, so only the server's account may read it.
    expect((statSync(join(dir, "session-secret")).mode & 0o777).toString(8)).toBe("600");
  });

  it("names each bad variable on its own line", () => {
    expect(problems({ PORT: "eighty", PUBLIC_BASE_URL: "not a url", OTP_MAX_PER_PHONE: "-2" })).toEqual([
      expect.stringMatching(/^PORT: /),
      expect.stringMatching(/^PUBLIC_BASE_URL: /),
      expect.stringMatching(/^OTP_MAX_PER_PHONE: /),
    ]);
  });

  it("refuses production without an admin password or real payment and SMS providers", () => {
    const found = problems({ NODE_ENV: "production" });
    expect(found).toContain("ADMIN_PASSWORD: is required when NODE_ENV=production");
    expect(found).toContain("STRIPE_SECRET_KEY: is required when NODE_ENV=production");
    expect(found).toContain("TWILIO_ACCOUNT_SID: is required when NODE_ENV=production");
    expect(problems(production)).toEqual([]);
  });

  it("refuses production without SMTP_URL, one line naming it, unless EMAIL=off", () => {
    const { SMTP_URL: _url, MAIL_FROM: _from, ...noMail } = production;
    expect(problems(noMail)).toEqual([
      "SMTP_URL: is required when NODE_ENV=production (or set EMAIL=off to send no email)",
    ]);
    expect(problems({ ...noMail, EMAIL: "off" })).toEqual([]);
    expect(problems({ ...production, EMAIL: "maybe" })).toEqual([expect.stringMatching(/^EMAIL: /)]);
  });

  it("reads the mail settings: a sender with SMTP, one address, an smtp or smtps URL", () => {
    expect(problems({ SMTP_URL: "smtp://localhost:2525" })).toEqual(["MAIL_FROM: is required with SMTP_URL"]);
    expect(problems({ SMTP_URL: "https://smtp.example.com", MAIL_FROM: "a@example.com" })).toEqual([
      expect.stringMatching(/^SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/),
    ]);
    for (const from of ["a@example.com, b@example.com", "Tickets", "Tickets <a@example.com>\r\nBcc: b@example.com"]) {
      expect(problems({ MAIL_FROM: from }), from).toEqual([expect.stringMatching(/^MAIL_FROM: must be one sender/)]);
    }
    const env = parseEnv({ DATABASE_PATH: join(dataDir(), "app.db"), ...production });
    expect(env).toMatchObject({
      SMTP_URL: "smtps://user:pass@smtp.example.com:465",
      MAIL_FROM: { name: "Speed Dating", address: "tickets@example.com" },
      EMAIL: "on",
    });
    expect(parseEnv({ DATABASE_PATH: join(dataDir(), "app.db") }).MAIL_FROM).toEqual({
      name: "Speed Dating",
      address: "tickets@localhost",
    });
  });

  it("wants the keys that belong together", () => {
    expect(problems({ STRIPE_SECRET_KEY: "sk_test_x" })).toEqual([expect.stringMatching(/^STRIPE_WEBHOOK_SECRET: /)]);
    expect(problems({ TWILIO_ACCOUNT_SID: "ACx" })).toContainEqual(expect.stringMatching(/^TWILIO_AUTH_TOKEN: /));
  });

  it("refuses at the start a Twilio account id the SDK would refuse at the first text", () => {
    expect(problems({ TWILIO_ACCOUNT_SID: "SK123", TWILIO_AUTH_TOKEN: "token" })).toContainEqual(
      "TWILIO_ACCOUNT_SID: starts with AC (Twilio's account id)",
    );
    expect(problems({ TWILIO_ACCOUNT_SID: "ACx", TWILIO_AUTH_TOKEN: "token" })).not.toContainEqual(
      expect.stringMatching(/^TWILIO_ACCOUNT_SID: /),
    );
  });

  it("turns Apple Wallet on with all five of its settings or none, naming each one missing", () => {
    expect(problems({ APPLE_PASS_TYPE_ID: "pass.au.example.tickets", APPLE_TEAM_ID: "TEAM123456" })).toEqual([
      "APPLE_PASS_CERT: is required with APPLE_PASS_TYPE_ID (Apple Wallet)",
      "APPLE_PASS_KEY: is required with APPLE_PASS_TYPE_ID (Apple Wallet)",
      "APPLE_WWDR_CERT: is required with APPLE_PASS_TYPE_ID (Apple Wallet)",
    ]);
    expect(problems({ APPLE_WWDR_CERT: "/keys/wwdr.pem" })).toHaveLength(4);
    const all = {
      APPLE_PASS_TYPE_ID: "pass.au.example.tickets",
      APPLE_TEAM_ID: "TEAM123456",
      APPLE_PASS_CERT: "/keys/pass.pem",
      APPLE_PASS_KEY: "/keys/pass.key",
      APPLE_WWDR_CERT: "/keys/wwdr.pem",
    };
    expect(problems(all)).toEqual([]);
    // The passphrase is optional (an unencrypted key), and alone turns nothing on.
    expect(problems({ APPLE_PASS_KEY_PASSPHRASE: "secret" })).toEqual([]);
  });
});

describe("operations settings", () => {
  it("trusts no proxy and backs nothing up unless told to", () => {
    const env = parseEnv({ DATABASE_PATH: join(dataDir(), "app.db") });
    expect(env).toMatchObject({
      TRUST_PROXY: { mode: "off" },
      SHUTDOWN_GRACE_SECONDS: 10,
      BACKUP_EVERY_HOURS: 24,
      BACKUP_KEEP: 14,
    });
    expect(env.BACKUP_DIR).toBeUndefined();
  });

  it("reads TRUST_PROXY as loopback, addresses and ranges, or a hop count", () => {
    const trust = (value: string) =>
      parseEnv({ DATABASE_PATH: join(dataDir(), "app.db"), TRUST_PROXY: value }).TRUST_PROXY;
    expect(trust("loopback")).toEqual({ mode: "ranges", ranges: ["127.0.0.0/8", "::1/128"] });
    expect(trust("10.0.0.1, 192.168.0.0/16, fd00::/8")).toEqual({
      mode: "ranges",
      ranges: ["10.0.0.1", "192.168.0.0/16", "fd00::/8"],
    });
    expect(trust("2")).toEqual({ mode: "hops", hops: 2 });
  });

  it("names TRUST_PROXY and the backup settings when they are wrong", () => {
    expect(problems({ TRUST_PROXY: "10.0.0.0/40" })).toEqual([expect.stringMatching(/^TRUST_PROXY: .*prefix/)]);
    expect(problems({ TRUST_PROXY: "my-proxy" })).toEqual([expect.stringMatching(/^TRUST_PROXY: "my-proxy"/)]);
    expect(problems({ SHUTDOWN_GRACE_SECONDS: "-1", BACKUP_EVERY_HOURS: "0", BACKUP_KEEP: "lots" })).toEqual([
      expect.stringMatching(/^SHUTDOWN_GRACE_SECONDS: /),
      expect.stringMatching(/^BACKUP_EVERY_HOURS: /),
      expect.stringMatching(/^BACKUP_KEEP: /),
    ]);
  });

  it("refuses a short admin password, a guessed public origin or a generated secret in production", () => {
    expect(problems({ ...production, ADMIN_PASSWORD: "elevenchars" })).toEqual([
      "ADMIN_PASSWORD: must be at least 12 characters when NODE_ENV=production",
    ]);
    expect(problems({ ...production, ADMIN_PASSWORD: "twelve chars" })).toEqual([]);
    const { PUBLIC_BASE_URL: _url, SESSION_SECRET: _secret, ...withoutBoth } = production;
    expect(problems(withoutBoth)).toEqual([
      "PUBLIC_BASE_URL: is required when NODE_ENV=production",
      "SESSION_SECRET: is required when NODE_ENV=production",
    ]);
    // Outside production a short password is the developer's business.
    expect(problems({ ADMIN_PASSWORD: "short" })).toEqual([]);
  });

  it("runs the local providers only on a developer's machine unless ALLOW_LOCAL_PROVIDERS=1", () => {
    expect(problems({ PUBLIC_BASE_URL: "https://tickets.example.com" })).toEqual([
      "ALLOW_LOCAL_PROVIDERS: PUBLIC_BASE_URL is public, so set STRIPE_SECRET_KEY and TWILIO_ACCOUNT_SID (real providers) or ALLOW_LOCAL_PROVIDERS=1",
    ]);
    expect(
      problems({
        PUBLIC_BASE_URL: "https://tickets.example.com",
        STRIPE_SECRET_KEY: "sk_x",
        STRIPE_WEBHOOK_SECRET: "w",
      }),
    ).toEqual([expect.stringMatching(/^ALLOW_LOCAL_PROVIDERS: .*set TWILIO_ACCOUNT_SID \(real/)]);
    expect(problems({ PUBLIC_BASE_URL: "https://tickets.example.com", ALLOW_LOCAL_PROVIDERS: "1" })).toEqual([]);
    for (const origin of [
      "http://localhost:3000",
      "http://127.0.0.1:8080",
      "http://[::1]:3000",
      "http://192.168.1.20:3000",
    ]) {
      expect(problems({ PUBLIC_BASE_URL: origin }), origin).toEqual([]);
    }
  });

  it("tells private origins from public ones", () => {
    for (const origin of [
      "http://10.0.0.5",
      "http://172.16.0.1",
      "http://172.31.255.1",
      "http://[fd12::1]",
      "http://pi.local",
    ]) {
      expect(isPrivateOrigin(origin), origin).toBe(true);
    }
    for (const origin of [
      "https://example.com",
      "http://172.32.0.1",
      "http://8.8.8.8",
      "http://[2001:db8::1]",
      "http://11.0.0.1",
    ]) {
      expect(isPrivateOrigin(origin), origin).toBe(false);
    }
  });

  it("pins the navbar script: the default URL's hash built in, a URL of one's own needs its hash", () => {
    expect(parseEnv({ DATABASE_PATH: join(dataDir(), "app.db") }).NAVBAR_SCRIPT_INTEGRITY).toBe(
      "sha256-kmHvs0B+OpCW5GVHUNjv9rOmY0IvSIRcf7zGUDTDQM8=",
    );
    expect(problems({ NAVBAR_SCRIPT_URL: "https://cdn.example.com/nav.js" })).toEqual([
      "NAVBAR_SCRIPT_INTEGRITY: is required with a NAVBAR_SCRIPT_URL of your own (the script's SRI hash)",
    ]);
    expect(problems({ NAVBAR_SCRIPT_URL: "https://cdn.example.com/nav.js", NAVBAR_SCRIPT_INTEGRITY: "md5-x" })).toEqual(
      [expect.stringMatching(/^NAVBAR_SCRIPT_INTEGRITY: must be an SRI hash/)],
    );
  });

  it("reads the retention and waitlist windows", () => {
    const env = parseEnv({ DATABASE_PATH: join(dataDir(), "app.db") });
    expect(env).toMatchObject({ RETENTION_DAYS: 90, WAITLIST_OFFER_MINUTES: 60 });
    expect(problems({ RETENTION_DAYS: "0", WAITLIST_OFFER_MINUTES: "soon" })).toEqual([
      expect.stringMatching(/^RETENTION_DAYS: /),
      expect.stringMatching(/^WAITLIST_OFFER_MINUTES: /),
    ]);
  });

  it("reminds to rate 3 hours before the results unless RATING_REMINDER_HOURS says otherwise or is empty", () => {
    const env = (value?: string) =>
      parseEnv({
        DATABASE_PATH: join(dataDir(), "app.db"),
        ...(value === undefined ? {} : { RATING_REMINDER_HOURS: value }),
      }).RATING_REMINDER_HOURS;
    expect(env()).toBe(3);
    expect(env("5")).toBe(5);
    expect(env("")).toBeNull();
    expect(problems({ RATING_REMINDER_HOURS: "0" })).toEqual([expect.stringMatching(/^RATING_REMINDER_HOURS: /)]);
    expect(problems({ RATING_REMINDER_HOURS: "soon" })).toEqual([expect.stringMatching(/^RATING_REMINDER_HOURS: /)]);
  });
});

describe("the business on receipts and tax invoices", () => {
  it("starts with a sample business that issues receipts, and formats a spaced or unspaced ABN", () => {
    const env = parseEnv({ DATABASE_PATH: join(dataDir(), "app.db") });
    expect(env).toMatchObject({
      BUSINESS_NAME: "Saathi Speed Dating",
      BUSINESS_ABN: "51 824 753 556",
      GST_REGISTERED: false,
    });
    expect(env.BUSINESS_ADDRESS.length).toBeGreaterThan(0);
    const set = parseEnv({
      DATABASE_PATH: join(dataDir(), "app.db"),
      BUSINESS_ABN: "53004085616",
      GST_REGISTERED: "1",
      BUSINESS_NAME: "Harbour Nights Pty Ltd",
    });
    expect(set).toMatchObject({ BUSINESS_ABN: "53 004 085 616", GST_REGISTERED: true });
  });

  it("stops start-up with one line naming a bad ABN, a wrong length or a bad GST flag", () => {
    // One digit changed: the checksum fails.
    expect(problems({ BUSINESS_ABN: "51 824 753 557" })).toEqual([
      "BUSINESS_ABN: is not a valid ABN (11 digits that pass the ABN checksum)",
    ]);
    expect(problems({ BUSINESS_ABN: "5182475355" })).toEqual([expect.stringMatching(/^BUSINESS_ABN: /)]);
    expect(problems({ BUSINESS_ABN: "51-824-753-556" })).toEqual([expect.stringMatching(/^BUSINESS_ABN: /)]);
    expect(problems({ GST_REGISTERED: "yes" })).toEqual([expect.stringMatching(/^GST_REGISTERED: /)]);
  });

  it("wants the organiser's own ABN on tax invoices in production", () => {
    expect(problems({ ...production, GST_REGISTERED: "1" })).toEqual([
      "BUSINESS_ABN: is required (your own ABN) when GST_REGISTERED=1 and NODE_ENV=production",
    ]);
    expect(problems({ ...production, GST_REGISTERED: "1", BUSINESS_ABN: "53 004 085 616" })).toEqual([]);
  });
});
