import { randomBytes } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { COOKIE as ADMIN_COOKIE, openAdminSession } from "../../api/lib/admin-session.ts";
import { signValue } from "../../api/lib/crypto.ts";
import { COOKIE as GUEST_COOKIE } from "../../api/lib/guest-session.ts";
import { guestSessions } from "../../db/access-schema.ts";
import type { Db } from "../../db/client.ts";
import { outboxMessages } from "../../db/schema.ts";
import { type TeamMember, type TeamRole, teamMembers } from "../../db/team-schema.ts";
import { type BrowserClient, browserClient, type TestServer } from "../api-harness.ts";

// What the team suites share (docs/decisions/050-the-team.md): members as rows, and browsers holding
// a session of a given person, opened on the server as a sign-in would open it.

let serial = 0;

/** A member who finished their set-up (active), straight into the table. */
export function insertMember(
  db: Db,
  role: TeamRole,
  name = `${role[0]?.toUpperCase()}${role.slice(1)} Person`,
): TeamMember {
  serial++;
  return db
    .insert(teamMembers)
    .values({ name, email: `${role}.${serial}.${Date.now()}@example.com`, role, activatedAt: Date.now() })
    .returning()
    .get();
}

/** A browser holding a fresh organiser session: the owner's (null) or a member's. */
export function sessionBrowser(server: TestServer, memberId: number | null): BrowserClient {
  const browser = browserClient(server.url);
  browser.jar.set(ADMIN_COOKIE, openAdminSession(server.deps, memberId).cookie);
  return browser;
}

/**
 * A browser holding a guest's /me session for `phone`, as verify-otp with `signIn` opens one: a row
 * and its signed id (api/lib/guest-session.ts), without texting a code for each.
 */
export function guestBrowser(server: TestServer, phone: string): BrowserClient {
  const now = server.deps.now();
  const id = randomBytes(32).toString("base64url");
  const expiresAt = now + 24 * 60 * 60 * 1000;
  server.deps.db.insert(guestSessions).values({ id, phone, createdAt: now, expiresAt }).run();
  const browser = browserClient(server.url);
  browser.jar.set(GUEST_COOKIE, signValue(server.deps.env.SESSION_SECRET, "guest-session", id, expiresAt));
  return browser;
}

/** The set-up link's token from the newest email to `email` (the outbox keeps what is to be sent). */
export function setupTokenFor(db: Db, email: string): string {
  const rows = db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.to, email), like(outboxMessages.subject, "Set up your sign-in%")))
    .all();
  const token = /\/admin\/setup\?t=([A-Za-z0-9_-]+)/.exec(rows.at(-1)?.body ?? "")?.[1];
  if (!token) throw new Error(`no set-up email to ${email}`);
  return token;
}
