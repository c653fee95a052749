import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.ts";

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

describe("configuration", () => {
  it("runs a newcomer's start with defaults, a printed admin password and a kept secret", () => {
    const dir = dataDir();
    const first = parseEnv({ DATABASE_PATH: join(dir, "app.db") });
    expect(first).toMatchObject({ PORT: 3000, PUBLIC_BASE_URL: "http://localhost:3000", adminPasswordIsDefault: true });
    expect(first.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    // The generated secret is kept, so cookies and texted links survive a restart.
    expect(parseEnv({ DATABASE_PATH: join(dir, "app.db") }).SESSION_SECRET).toBe(first.SESSION_SECRET);
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
    expect(
      problems({
        NODE_ENV: "production",
        ADMIN_PASSWORD: "a long production password",
        SESSION_SECRET: "s".repeat(40),
        STRIPE_SECRET_KEY: "sk_live_x",
        STRIPE_WEBHOOK_SECRET: "whsec_x",
        TWILIO_ACCOUNT_SID: "ACx",
        TWILIO_AUTH_TOKEN: "token",
        TWILIO_VERIFY_SERVICE_SID: "VAx",
        TWILIO_FROM: "+61400000000",
      }),
    ).toEqual([]);
  });

  it("wants the keys that belong together", () => {
    expect(problems({ STRIPE_SECRET_KEY: "sk_test_x" })).toEqual([expect.stringMatching(/^STRIPE_WEBHOOK_SECRET: /)]);
    expect(problems({ TWILIO_ACCOUNT_SID: "ACx" })).toContainEqual(expect.stringMatching(/^TWILIO_AUTH_TOKEN: /));
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
});
