import { randomBytes } from "node:crypto";
import { desc, eq, inArray, isNotNull, lte, or } from "drizzle-orm";
import { doorsOpenAtOf } from "../../common/doors-open.ts";
import { type HostLink, hostLinks, hostSessions } from "../../db/access-schema.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { events } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { isValidLinkToken, linkToken } from "../lib/capability.ts";
import { Conflict, Forbidden, NotFound, Unauthorized } from "../lib/errors.ts";
import { type Limit, takeHit } from "../lib/rate-limit.ts";
import { doorsNotOpen } from "../night/check-in.ts";
import { recordActivity } from "./activity.ts";
import type { HostLinkRow } from "./admin-schemas.ts";

// Host links and host sessions (docs/decisions/022-host-access.md): one night's door and rounds for a
// staff phone, without the organiser's password.

const HOUR = 3_600_000;
/** A host link works until this long after the event's planned end (start + duration). */
export const HOST_LINK_GRACE_MS = 6 * HOUR;

/** The PWA page a host link opens; it signs the phone in and drops the token from the address. */
export const HOST_PAGE = "/host";

/** `{id}.{hmac}`: the id finds the row, the HMAC (over id and expiry, purpose "host") proves the link. */
export const hostLinkToken = (env: Pick<Env, "SESSION_SECRET">, link: Pick<HostLink, "id" | "expiresAt">) =>
  `${link.id}.${linkToken(env, "host", link.id, link.expiresAt)}`;

const iso = (ms: number) => new Date(ms).toISOString();

function toRow(env: Env, link: HostLink): HostLinkRow {
  return {
    id: link.id,
    eventID: link.eventId,
    label: link.label,
    url: `${env.PUBLIC_BASE_URL}${HOST_PAGE}?t=${hostLinkToken(env, link)}`,
    expiresAt: iso(link.expiresAt),
    createdAt: iso(link.createdAt),
    revokedAt: link.revokedAt === null ? null : iso(link.revokedAt),
  };
}

/** A new link for the event; 409 once the night is more than 6 hours over (the link would be dead). */
export function createHostLink(
  deps: { db: Db; env: Env },
  input: { eventId: number; label: string; actor: string },
  now: number,
): HostLinkRow {
  const link = deps.db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, input.eventId)).get();
      if (!event) throw NotFound("no such event");
      const expiresAt = Math.round(event.startsAt + event.durationHours * HOUR + HOST_LINK_GRACE_MS);
      if (expiresAt <= now) throw Conflict("this event ended more than 6 hours ago", "wrong_state");
      const created = tx
        .insert(hostLinks)
        .values({ eventId: event.id, label: input.label, expiresAt, createdAt: now })
        .returning()
        .get();
      recordActivity(
        tx,
        { actor: input.actor, action: "host link created", eventId: event.id, detail: input.label },
        now,
      );
      return created;
    },
    { behavior: "immediate" },
  );
  return toRow(deps.env, link);
}

/** The event's links, newest first, revoked and expired ones included (the page greys them). */
export function listHostLinks(deps: { db: Db; env: Env }, eventId: number): HostLinkRow[] {
  if (!deps.db.select({ id: events.id }).from(events).where(eq(events.id, eventId)).get()) {
    throw NotFound("no such event");
  }
  return deps.db
    .select()
    .from(hostLinks)
    .where(eq(hostLinks.eventId, eventId))
    .orderBy(desc(hostLinks.createdAt), desc(hostLinks.id))
    .all()
    .map((link) => toRow(deps.env, link));
}

/** Revokes a link: every session opened with it ends at once. Revoking twice changes nothing. */
export function revokeHostLink(db: Db, input: { id: number; actor: string }, now: number): HostLink {
  return db.transaction(
    (tx) => {
      const link = tx.select().from(hostLinks).where(eq(hostLinks.id, input.id)).get();
      if (!link) throw NotFound("no such host link");
      if (link.revokedAt !== null) return link;
      tx.update(hostLinks).set({ revokedAt: now }).where(eq(hostLinks.id, link.id)).run();
      tx.delete(hostSessions).where(eq(hostSessions.linkId, link.id)).run();
      recordActivity(
        tx,
        { actor: input.actor, action: "host link revoked", eventId: link.eventId, detail: link.label },
        now,
      );
      return { ...link, revokedAt: now };
    },
    { behavior: "immediate" },
  );
}

const hostAccessEnded = () => Unauthorized("this host link was revoked or has expired", "host_access_ended");

const MINUTE = 60_000;
/**
 * Each sign-in stores a session row, so sign-ins are counted: a night's hosts share a link from a few
 * phones (30 an hour is plenty), and one address may try any tokens 60 times an hour, valid or not.
 * The link's count starts only once its signature is right, so nobody can lock a link out by guessing.
 */
export const HOST_LOGIN_PER_LINK_LIMIT: Limit = { bucket: "host-login-link", max: 30, windowMs: 60 * MINUTE };
export const HOST_LOGIN_PER_ADDRESS_LIMIT: Limit = { bucket: "host-login", max: 60, windowMs: 60 * MINUTE };

/** 403 `host_link_not_open` until the event's doors open: a host link opens the door and the rounds from then. */
export function assertHostDoorsOpen(db: DbOrTx, eventId: number, now: number) {
  const event = db.select().from(events).where(eq(events.id, eventId)).get();
  if (event && now < doorsOpenAtOf(event)) throw doorsNotOpen(event, 403, now);
}

/**
 * Opens a host session for a link token: 429 past the sign-in limits, 403 for a token that is not one
 * of ours, 401 `host_access_ended` for a revoked or expired link, 403 `host_link_not_open` (with the time)
 * before the event's doors open. Returns the new session's id.
 */
export function openHostSession(deps: { db: Db; env: Env }, token: unknown, address: string, now: number) {
  takeHit(deps.db, HOST_LOGIN_PER_ADDRESS_LIMIT, address, now);
  const [idText, ...rest] = typeof token === "string" && token.length < 200 ? token.split(".") : [];
  const id = /^[1-9]\d{0,15}$/.test(idText ?? "") ? Number(idText) : 0;
  const link = id ? deps.db.select().from(hostLinks).where(eq(hostLinks.id, id)).get() : undefined;
  // The same answer for an unknown id as for a wrong signature: no probing which links exist.
  if (!link || rest.length !== 1 || !isValidLinkToken(deps.env, "host", [link.id, link.expiresAt], rest[0])) {
    throw Forbidden("this is not a host link", "invalid_link");
  }
  if (link.revokedAt !== null || link.expiresAt <= now) throw hostAccessEnded();
  takeHit(deps.db, HOST_LOGIN_PER_LINK_LIMIT, String(link.id), now);
  assertHostDoorsOpen(deps.db, link.eventId, now);
  const sessionId = randomBytes(32).toString("base64url");
  deps.db.insert(hostSessions).values({ id: sessionId, linkId: link.id, createdAt: now }).run();
  return { sessionId, link };
}

export type HostSession = { linkId: number; eventId: number; label: string; expiresAt: number };

/** The live session with this id, or "ended" when its link was revoked or expired, or null when unknown. */
export function findHostSession(db: DbOrTx, sessionId: string, now: number): HostSession | "ended" | null {
  const row = db
    .select({ link: hostLinks })
    .from(hostSessions)
    .innerJoin(hostLinks, eq(hostLinks.id, hostSessions.linkId))
    .where(eq(hostSessions.id, sessionId))
    .get();
  if (!row) return null;
  const { link } = row;
  if (link.revokedAt !== null || link.expiresAt <= now) return "ended";
  return { linkId: link.id, eventId: link.eventId, label: link.label, expiresAt: link.expiresAt };
}

export { hostAccessEnded };

/** The retention job's part: sessions of revoked or expired links can never be used again. */
export function deleteDeadHostSessions(db: Db, now: number): number {
  const dead = db
    .select({ id: hostLinks.id })
    .from(hostLinks)
    .where(or(isNotNull(hostLinks.revokedAt), lte(hostLinks.expiresAt, now)));
  return db.delete(hostSessions).where(inArray(hostSessions.linkId, dead)).run().changes;
}

/** The event's name and venue zone, for the host's header. */
export function hostEvent(db: DbOrTx, eventId: number): { eventName: string; timeZone: string } {
  const event = db
    .select({ name: events.name, timeZone: events.timeZone })
    .from(events)
    .where(eq(events.id, eventId))
    .get();
  return { eventName: event?.name ?? "", timeZone: event?.timeZone ?? "UTC" };
}
