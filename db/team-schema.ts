import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// The organiser's team (issue 49, docs/decisions/050-the-team.md): the people who sign in at /admin
// beside the owner's password, how each proves who they are, and the owner's own second factor.
// Host links stay in access-schema.ts: they open one night, not the business.

const createdAt = () => integer("created_at").notNull().default(sql`(unixepoch('subsec') * 1000)`);

/** What a member may do (api/lib/roles.ts); the password's sign-in is the owner, who has no row here. */
export const teamRoles = ["manager", "finance", "door"] as const;
export type TeamRole = (typeof teamRoles)[number];

/**
 * A person on the organiser's team. `invited` until they finish the set-up link (`activatedAt`), then
 * `active`; a removed member keeps the row (Activity still names them) with `removedAt` set, and every
 * way in (sessions, passkeys, password, codes) stops at once.
 *
 * Secrets: `passwordHash` is scrypt's (`scrypt$N$r$p$salt$hash`), `totpSecret` is encrypted with a
 * key derived from SESSION_SECRET (api/lib/crypto.ts), the set-up token is kept only as its hash.
 * None of them is ever in a reply, a log or the data download.
 */
export const teamMembers = sqliteTable(
  "team_members",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    /** Lower-cased: the sign-in's name. */
    email: text("email").notNull(),
    role: text("role", { enum: teamRoles }).notNull(),
    passwordHash: text("password_hash"),
    totpSecret: text("totp_secret"),
    /** The last TOTP time step accepted: a code is refused if its step is not later (used twice). */
    totpLastStep: integer("totp_last_step"),
    /** sha256 of the live set-up link's token; null once used, or when the member is removed. */
    setupTokenHash: text("setup_token_hash"),
    setupExpiresAt: integer("setup_expires_at"),
    createdAt: createdAt(),
    activatedAt: integer("activated_at"),
    removedAt: integer("removed_at"),
    lastSignInAt: integer("last_sign_in_at"),
  },
  // One live member per address; a removed member's row stays, so the address may be added again.
  (t) => [
    uniqueIndex("team_members_email").on(t.email).where(sql`removed_at is null`),
    index("team_members_setup").on(t.setupTokenHash),
  ],
);

/**
 * The owner's own sign-in settings: one row (`id` 1) once the owner adds a second factor. Without it
 * (or with `requireSecondFactor` 0) the password alone signs the owner in, as it always has.
 */
export const ownerSecurity = sqliteTable("owner_security", {
  id: integer("id").primaryKey(),
  requireSecondFactor: integer("require_second_factor", { mode: "boolean" }).notNull().default(false),
  totpSecret: text("totp_secret"),
  totpLastStep: integer("totp_last_step"),
});

/** One-time recovery codes (ten, shown once), kept as hashes; `memberId` null is the owner's. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    memberId: integer("member_id").references(() => teamMembers.id),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("recovery_codes_member").on(t.memberId)],
);

/**
 * A passkey (a WebAuthn credential: Face ID, a fingerprint, a phone or a security key); `memberId`
 * null is the owner's. `id` is the credential's id (base64url), `publicKey` its COSE key (base64url).
 */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    memberId: integer("member_id").references(() => teamMembers.id),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    /** JSON array of the authenticator's transports, as the browser reported them. */
    transports: text("transports"),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [index("passkeys_member").on(t.memberId)],
);

/**
 * A WebAuthn challenge handed to a browser, used at most once before `expiresAt`. `purpose` is
 * `register` or `sign-in`; `memberId` (null: the owner) says whose registration it is.
 */
export const webauthnChallenges = sqliteTable("webauthn_challenges", {
  id: text("id").primaryKey(),
  challenge: text("challenge").notNull(),
  purpose: text("purpose", { enum: ["register", "sign-in"] }).notNull(),
  memberId: integer("member_id").references(() => teamMembers.id),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
});

export type TeamMember = typeof teamMembers.$inferSelect;
export type Passkey = typeof passkeys.$inferSelect;

/**
 * Admin sessions, so that logout ends one on the server and a copied cookie stops working. The cookie
 * names the row; `passwordFingerprint` ties it to the ADMIN_PASSWORD it was opened with, so changing
 * the password ends every session.
 */
export const adminSessions = sqliteTable("admin_sessions", {
  id: text("id").primaryKey(),
  /** Whose session: a team member (above), or null for the owner's password. */
  memberId: integer("member_id"),
  passwordFingerprint: text("password_fingerprint").notNull(),
  expiresAt: integer("expires_at").notNull(),
  revokedAt: integer("revoked_at"),
  createdAt: createdAt(),
});
