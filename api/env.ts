import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import emailAddresses from "email-addresses";
import { z } from "zod";
import { formatAbn, isValidAbn } from "../common/abn.ts";
import { isTimeZone } from "../common/venue-time-input.ts";
import { parseTrustProxy, TrustProxyError } from "./lib/trust-proxy.ts";

// The only module that reads process.env. Everything else receives an `Env`.

export const DEFAULT_NAVBAR_SCRIPT_URL = "https://code.jquery.com/jquery-3.7.1.slim.min.js";
const DEFAULT_NAVBAR_SCRIPT_INTEGRITY = "sha256-kmHvs0B+OpCW5GVHUNjv9rOmY0IvSIRcf7zGUDTDQM8=";
const MIN_PRODUCTION_PASSWORD = 12;
/** The sender of every email when MAIL_FROM is not set (development only: SMTP_URL requires MAIL_FROM). */
export const DEV_MAIL_FROM = "Speed Dating <tickets@localhost>";
/** A valid sample ABN (the ATO's format example), for development only: production with GST sets its own. */
export const DEV_BUSINESS_ABN = "51 824 753 556";

/** Loopback, private-network (RFC 1918, unique-local IPv6) and `.local`/`localhost` hosts: a developer's machine or LAN. */
export function isPrivateOrigin(origin: string): boolean {
  const host = new URL(origin).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local")) return true;
  if (host === "::1" || /^f[cd][0-9a-f]{2}:/.test(host) || host.startsWith("fe80:")) return true;
  const v4 = host.match(/^(\d+)\.(\d+)\.\d+\.\d+$/);
  if (!v4) return false;
  const [a, b] = [Number(v4[1]), Number(v4[2])];
  return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_PATH: z.string().min(1).default("data/app.db"),
    UPLOADS_DIR: z.string().min(1).default("data/uploads"),
    // The built PWA; only the update-prompt test serves a second build from elsewhere.
    STATIC_DIR: z.string().min(1).optional(),
    PUBLIC_BASE_URL: z.url().optional(),
    ADMIN_PASSWORD: optionalText,
    SESSION_SECRET: optionalText.pipe(z.string().min(32, "must be at least 32 characters").optional()),
    SEED_DEMO: z.enum(["0", "1"]).default("1"),
    SUPPORT_EMAIL: z.email().default("support@example.com"),
    // The owner's own address (optional): told when the owner's password is locked (issue 49).
    ORGANISER_EMAIL: optionalText.pipe(z.email().optional()),
    // The organiser's mobile (optional, E.164): texted when a night is short of numbers (issue 52).
    ORGANISER_PHONE: optionalText.pipe(
      z
        .string()
        .regex(/^\+[1-9]\d{7,14}$/, "must be a mobile in international form, such as +61412345678")
        .optional(),
    ),
    COMPANY_SITE_URL: z.url().default("https://example.com"),
    NAVBAR_SCRIPT_URL: z.url().default(DEFAULT_NAVBAR_SCRIPT_URL),
    // Subresource Integrity of that script (docs/decisions/013); the default URL's hash is built in.
    NAVBAR_SCRIPT_INTEGRITY: optionalText.pipe(
      z
        .string()
        .regex(/^sha(256|384|512)-[A-Za-z0-9+/]+={0,2}$/, "must be an SRI hash such as sha384-…")
        .optional(),
    ),
    // With no real keys the local checkout and console SMS run; off a developer's machine only when asked.
    ALLOW_LOCAL_PROVIDERS: z.enum(["0", "1"]).default("0"),
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_PUBLISHABLE_KEY: optionalText,
    STRIPE_WEBHOOK_SECRET: optionalText,
    // Tests point the real SDKs at a fake server on loopback with these; never set in production.
    STRIPE_API_BASE: z.url().optional(),
    TWILIO_API_BASE: z.url().optional(),
    TWILIO_ACCOUNT_SID: optionalText,
    TWILIO_AUTH_TOKEN: optionalText,
    TWILIO_VERIFY_SERVICE_SID: optionalText,
    TWILIO_FROM: optionalText,
    // Email (docs/decisions/031-email-channel.md): nodemailer's SMTP transport when SMTP_URL is set,
    // otherwise the local provider (one log line per email, GET /api/dev/mailbox). EMAIL=off: the
    // organiser chose no email, so nothing is queued or sent.
    SMTP_URL: optionalText.pipe(
      z
        .string()
        .refine(isSmtpUrl, "must be an smtp:// or smtps:// URL such as smtps://user:pass@smtp.example.com:465")
        .optional(),
    ),
    MAIL_FROM: optionalText.pipe(
      z
        .string()
        .refine((v) => parseMailbox(v) !== null, "must be one sender such as Speed Dating <tickets@example.com>")
        .optional(),
    ),
    EMAIL: z.enum(["on", "off"]).default("on"),
    OTP_MAX_PER_PHONE: positiveInt(3),
    OTP_MAX_PER_ADDRESS: positiveInt(10),
    ADMIN_LOGIN_MAX_FAILURES: positiveInt(50),
    // Only the crash and load suites raise this; a hold is 30 minutes for everyone else.
    HOLD_MINUTES: positiveInt(30),
    // The zone of new events, and of events saved before events had one (docs/decisions/005).
    EVENT_TIME_ZONE: z
      .string()
      .trim()
      .default("Australia/Sydney")
      .refine(isTimeZone, "must be an IANA time zone such as Australia/Sydney"),
    // Hours before the start at which every paid attendee is texted a reminder; empty turns them off.
    REMINDER_HOURS: z
      .string()
      .trim()
      .default("24,2")
      .transform((v) => (v === "" ? [] : v.split(",").map((h) => Number(h.trim()))))
      .refine((hours) => hours.every((h) => Number.isInteger(h) && h > 0 && h <= 24 * 14), {
        message: "must be whole hours before the start, comma-separated (e.g. 24,2), or empty",
      })
      .transform((hours) => [...new Set(hours)].sort((a, b) => b - a)),
    // Operations (docs/decisions/006-operations.md). Unset TRUST_PROXY trusts no proxy's headers.
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((v, ctx) => {
        try {
          return parseTrustProxy(v);
        } catch (error) {
          if (!(error instanceof TrustProxyError)) throw error;
          ctx.issues.push({ code: "custom", message: error.message, input: v });
          return z.NEVER;
        }
      }),
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
    BACKUP_DIR: optionalText,
    BACKUP_EVERY_HOURS: positiveInt(24),
    BACKUP_KEEP: positiveInt(14),
    // Days after an event ends before its attendees' photos and contact details are erased (decision 012).
    RETENTION_DAYS: positiveInt(90),
    // Announcements (issue 36): marketing messages sent per minute at most, texts and emails together.
    INVITE_RATE_PER_MINUTE: positiveInt(60),
    // How long a freed seat is kept for the first person on the waitlist (never past the start).
    WAITLIST_OFFER_MINUTES: positiveInt(60),
    // Hours before an event's results time at which those who have not rated everyone they met get
    // one reminder (docs/decisions/021-results.md); empty turns it off.
    RATING_REMINDER_HOURS: z
      .string()
      .trim()
      .default("3")
      .refine((v) => v === "" || /^\d+$/.test(v), "must be whole hours before the results time, or empty")
      .transform((v) => (v === "" ? null : Number(v)))
      .refine((h) => h === null || (h > 0 && h <= 24 * 7), "must be 1 to 168 hours, or empty"),
    // The seller on every receipt, tax invoice and adjustment note (docs/decisions/032-invoices.md).
    BUSINESS_NAME: z.string().trim().min(1).max(120).default("Saathi Speed Dating"),
    BUSINESS_ABN: z
      .string()
      .trim()
      .default(DEV_BUSINESS_ABN)
      .refine(isValidAbn, "is not a valid ABN (11 digits that pass the ABN checksum)")
      .transform(formatAbn),
    BUSINESS_ADDRESS: z.string().trim().min(1).max(200).default("Sydney NSW 2000"),
    // 1: documents are Tax invoices showing GST (1/11 of the price); 0: Receipts without GST.
    GST_REGISTERED: z
      .enum(["0", "1"])
      .default("0")
      .transform((v) => v === "1"),
    // Apple Wallet passes (issue 50; docs/operations.md, "Wallet passes"): the Pass Type ID, the team,
    // and paths of PEM files (the pass certificate, its key, Apple's WWDR intermediate). All or none.
    APPLE_PASS_TYPE_ID: optionalText,
    APPLE_TEAM_ID: optionalText,
    APPLE_PASS_CERT: optionalText,
    APPLE_PASS_KEY: optionalText,
    APPLE_WWDR_CERT: optionalText,
    APPLE_PASS_KEY_PASSPHRASE: optionalText,
    // Where pushes to Wallet go (HTTP/2): Apple's; tests point it at a local stand-in.
    APNS_BASE_URL: z.url().default("https://api.push.apple.com"),
    // Google Wallet (issue 50): the issuer id and the path of a service-account JSON key. Both or none.
    GOOGLE_WALLET_ISSUER_ID: optionalText,
    GOOGLE_WALLET_KEY: optionalText,
    // Google's Wallet REST API (objects' updates); tests point it at a local stand-in.
    GOOGLE_WALLET_API_BASE: z.url().default("https://walletobjects.googleapis.com/walletobjects/v1"),
  })
  .superRefine((v, ctx) => {
    if (v.NODE_ENV === "production") {
      if (!v.ADMIN_PASSWORD) {
        ctx.addIssue({ code: "custom", path: ["ADMIN_PASSWORD"], message: "is required when NODE_ENV=production" });
      } else if (v.ADMIN_PASSWORD.length < MIN_PRODUCTION_PASSWORD) {
        ctx.addIssue({
          code: "custom",
          path: ["ADMIN_PASSWORD"],
          message: `must be at least ${MIN_PRODUCTION_PASSWORD} characters when NODE_ENV=production`,
        });
      }
      // Links, QR codes and checkout returns name the public origin; a guess would send people elsewhere.
      if (!v.PUBLIC_BASE_URL) {
        ctx.addIssue({ code: "custom", path: ["PUBLIC_BASE_URL"], message: "is required when NODE_ENV=production" });
      }
      // A secret generated into the data folder means a copy of that folder can forge admin cookies.
      if (!v.SESSION_SECRET) {
        ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required when NODE_ENV=production" });
      }
    }
    // A public origin with local providers would take "payments" nobody made (decision 013).
    const localProviders = [!v.STRIPE_SECRET_KEY && "STRIPE_SECRET_KEY", !v.TWILIO_ACCOUNT_SID && "TWILIO_ACCOUNT_SID"];
    const missing = localProviders.filter((name): name is string => Boolean(name));
    if (
      missing.length > 0 &&
      v.PUBLIC_BASE_URL &&
      !isPrivateOrigin(v.PUBLIC_BASE_URL) &&
      v.ALLOW_LOCAL_PROVIDERS !== "1"
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["ALLOW_LOCAL_PROVIDERS"],
        message: `PUBLIC_BASE_URL is public, so set ${missing.join(" and ")} (real providers) or ALLOW_LOCAL_PROVIDERS=1`,
      });
    }
    if (v.NAVBAR_SCRIPT_URL !== DEFAULT_NAVBAR_SCRIPT_URL && !v.NAVBAR_SCRIPT_INTEGRITY) {
      ctx.addIssue({
        code: "custom",
        path: ["NAVBAR_SCRIPT_INTEGRITY"],
        message: "is required with a NAVBAR_SCRIPT_URL of your own (the script's SRI hash)",
      });
    }
    // The local checkout and the console SMS provider exist for development only (their /api/dev
    // pages are off in production), so production without real providers could take no payment.
    if (v.NODE_ENV === "production" && !v.STRIPE_SECRET_KEY) {
      ctx.addIssue({ code: "custom", path: ["STRIPE_SECRET_KEY"], message: "is required when NODE_ENV=production" });
    }
    if (v.NODE_ENV === "production" && !v.TWILIO_ACCOUNT_SID) {
      ctx.addIssue({ code: "custom", path: ["TWILIO_ACCOUNT_SID"], message: "is required when NODE_ENV=production" });
    }
    // Tickets and receipts go by email; production sends them for real, unless the organiser said no.
    if (v.NODE_ENV === "production" && !v.SMTP_URL && v.EMAIL !== "off") {
      ctx.addIssue({
        code: "custom",
        path: ["SMTP_URL"],
        message: "is required when NODE_ENV=production (or set EMAIL=off to send no email)",
      });
    }
    // A made-up sender would be refused or marked as spam by every real provider.
    if (v.SMTP_URL && !v.MAIL_FROM) {
      ctx.addIssue({ code: "custom", path: ["MAIL_FROM"], message: "is required with SMTP_URL" });
    }
    // A tax invoice carrying the sample ABN would be a false tax document.
    if (v.NODE_ENV === "production" && v.GST_REGISTERED && v.BUSINESS_ABN === DEV_BUSINESS_ABN) {
      ctx.addIssue({
        code: "custom",
        path: ["BUSINESS_ABN"],
        message: "is required (your own ABN) when GST_REGISTERED=1 and NODE_ENV=production",
      });
    }
    if (v.STRIPE_SECRET_KEY && !v.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({ code: "custom", path: ["STRIPE_WEBHOOK_SECRET"], message: "is required with STRIPE_SECRET_KEY" });
    }
    // Twilio's SDK refuses any other account id; it is loaded at the first text, so the start says so.
    if (v.TWILIO_ACCOUNT_SID && !v.TWILIO_ACCOUNT_SID.startsWith("AC")) {
      ctx.addIssue({ code: "custom", path: ["TWILIO_ACCOUNT_SID"], message: "starts with AC (Twilio's account id)" });
    }
    if (Boolean(v.TWILIO_ACCOUNT_SID) !== Boolean(v.TWILIO_AUTH_TOKEN)) {
      ctx.addIssue({
        code: "custom",
        path: [v.TWILIO_ACCOUNT_SID ? "TWILIO_AUTH_TOKEN" : "TWILIO_ACCOUNT_SID"],
        message: "TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN go together",
      });
    }
    // A wallet half-configured would show a button that cannot work: all of a wallet's settings or none.
    const apple = [
      "APPLE_PASS_TYPE_ID",
      "APPLE_TEAM_ID",
      "APPLE_PASS_CERT",
      "APPLE_PASS_KEY",
      "APPLE_WWDR_CERT",
    ] as const;
    const appleSet = apple.filter((name) => v[name]);
    if (appleSet.length > 0 && appleSet.length < apple.length) {
      for (const name of apple.filter((n) => !v[n]))
        ctx.addIssue({ code: "custom", path: [name], message: `is required with ${appleSet[0]} (Apple Wallet)` });
    }
    if (Boolean(v.GOOGLE_WALLET_ISSUER_ID) !== Boolean(v.GOOGLE_WALLET_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: [v.GOOGLE_WALLET_ISSUER_ID ? "GOOGLE_WALLET_KEY" : "GOOGLE_WALLET_ISSUER_ID"],
        message: "GOOGLE_WALLET_ISSUER_ID and GOOGLE_WALLET_KEY go together (Google Wallet)",
      });
    }
    if (v.TWILIO_ACCOUNT_SID && (!v.TWILIO_VERIFY_SERVICE_SID || !v.TWILIO_FROM)) {
      ctx.addIssue({
        code: "custom",
        path: [v.TWILIO_VERIFY_SERVICE_SID ? "TWILIO_FROM" : "TWILIO_VERIFY_SERVICE_SID"],
        message: "is required with TWILIO_ACCOUNT_SID",
      });
    }
  });

export type Env = Omit<z.infer<typeof schema>, "MAIL_FROM"> & {
  /** The sender of every email: MAIL_FROM read as one mailbox, or DEV_MAIL_FROM's. */
  MAIL_FROM: { name: string; address: string };
  PUBLIC_BASE_URL: string;
  ADMIN_PASSWORD: string;
  SESSION_SECRET: string;
  /** The navbar script's SRI hash: NAVBAR_SCRIPT_INTEGRITY, or the built-in one for the default URL. */
  NAVBAR_SCRIPT_INTEGRITY: string;
  /** True when no admin password was configured and the development default is in use. */
  adminPasswordIsDefault: boolean;
};

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
  }
}

export const DEV_ADMIN_PASSWORD = "admin-dev-password";

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** One sender (`Name <address>` or a bare address) with no line break anywhere, or null. */
export function parseMailbox(value: string): { name: string; address: string } | null {
  if (/[\r\n]/.test(value)) return null;
  // RFC 5322's one mailbox (`Name <address>` or an address), through email-addresses' public parser.
  const only = emailAddresses.parseOneAddress(value);
  if (only?.type !== "mailbox" || !/^[^\s@<>,;]+@[^\s@<>,;]+$/.test(only.address)) return null;
  return { name: only.name ?? "", address: only.address };
}

/** Validates a raw environment; every bad variable becomes one line naming it. */
export function parseEnv(raw: Record<string, string | undefined>): Env {
  const result = schema.safeParse(raw);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${String(i.path[0] ?? "environment")}: ${i.message}`));
  }
  const v = result.data;
  return {
    ...v,
    PUBLIC_BASE_URL: (v.PUBLIC_BASE_URL ?? `http://localhost:${v.PORT}`).replace(/\/+$/, ""),
    // Checked by the schema above; DEV_MAIL_FROM parses.
    MAIL_FROM: parseMailbox(v.MAIL_FROM ?? DEV_MAIL_FROM) ?? { name: "", address: "tickets@localhost" },
    ADMIN_PASSWORD: v.ADMIN_PASSWORD ?? DEV_ADMIN_PASSWORD,
    adminPasswordIsDefault: !v.ADMIN_PASSWORD,
    NAVBAR_SCRIPT_INTEGRITY: v.NAVBAR_SCRIPT_INTEGRITY ?? DEFAULT_NAVBAR_SCRIPT_INTEGRITY,
    SESSION_SECRET: v.SESSION_SECRET ?? loadOrCreateSecret(dirname(v.DATABASE_PATH)),
  };
}

/** A secret generated once and kept beside the database, so cookies and links survive restarts. */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function readEnv(): Env {
  return parseEnv(process.env);
}

/** readEnv for a command (the server, backup, restore): a bad setting prints one line each and exits 1. */
export function readEnvOrExit(): Env {
  try {
    return readEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    for (const line of error.problems) console.error(`Configuration error: ${line}`);
    process.exit(1);
  }
}
