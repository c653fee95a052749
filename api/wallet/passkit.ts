import { and, desc, eq, gt } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { walletPasses, walletRegistrations } from "../../db/wallet-schema.ts";
import type { Env } from "../env.ts";
import { safeEqual } from "../lib/crypto.ts";
import { passAuthToken } from "./pass-facts.ts";

// Apple's PassKit web service, what it does behind its routes (passkit-routes.ts; docs/decisions/055):
// a device registers for a pass it added, asks which of its passes changed since a tag, and fetches
// one. A device only ever learns the serial numbers of passes it registered with their own tokens.

/** Apple's `Authorization: ApplePass {token}` for the pass `serialNumber`: true when the token is that pass's. */
export function isPassAuthorized(env: Pick<Env, "SESSION_SECRET">, serialNumber: string, header: string | undefined) {
  const match = /^ApplePass ([A-Za-z0-9_-]{16,200})$/.exec(header ?? "");
  return match !== null && safeEqual(match[1]!, passAuthToken(env, serialNumber));
}

/** The wallet row of a pass by its serial number. */
export const passOfSerial = (db: DbOrTx, serialNumber: string) =>
  db.select().from(walletPasses).where(eq(walletPasses.serialNumber, serialNumber)).get();

/**
 * A device registers for a pass's updates: `created` the first time, `updated` when it was already
 * (its push token, which may have changed, is kept).
 */
export function registerDevice(
  db: DbOrTx,
  registration: { deviceLibraryId: string; serialNumber: string; pushToken: string },
): "created" | "updated" {
  const where = and(
    eq(walletRegistrations.deviceLibraryId, registration.deviceLibraryId),
    eq(walletRegistrations.serialNumber, registration.serialNumber),
  );
  const inserted = db.insert(walletRegistrations).values(registration).onConflictDoNothing().run();
  if (inserted.changes === 1) return "created";
  db.update(walletRegistrations).set({ pushToken: registration.pushToken }).where(where).run();
  return "updated";
}

/** A device no longer wants a pass's updates (it removed the pass): its registration is deleted. */
export function unregisterDevice(db: DbOrTx, deviceLibraryId: string, serialNumber: string): void {
  db.delete(walletRegistrations)
    .where(
      and(eq(walletRegistrations.deviceLibraryId, deviceLibraryId), eq(walletRegistrations.serialNumber, serialNumber)),
    )
    .run();
}

/**
 * The serial numbers of the device's passes changed after tag `since` (all of them without it), and
 * the newest tag among them, which the device sends as `passesUpdatedSince` next time; null when none.
 */
export function changedPasses(
  db: DbOrTx,
  deviceLibraryId: string,
  since: number | undefined,
): { serialNumbers: string[]; lastUpdated: string } | null {
  const onDevice = and(
    eq(walletRegistrations.deviceLibraryId, deviceLibraryId),
    since === undefined ? undefined : gt(walletPasses.updateTag, since),
  );
  const rows = db
    .select({ serialNumber: walletPasses.serialNumber, tag: walletPasses.updateTag })
    .from(walletRegistrations)
    .innerJoin(walletPasses, eq(walletPasses.serialNumber, walletRegistrations.serialNumber))
    .where(onDevice)
    .orderBy(desc(walletPasses.updateTag))
    .all();
  if (rows.length === 0) return null;
  return { serialNumbers: rows.map((r) => r.serialNumber), lastUpdated: String(rows[0]!.tag) };
}

/** Whether the device's copy, fetched at `ifModifiedSince` (an HTTP date), is still the latest. */
export function isUnchangedSince(updatedAt: number, ifModifiedSince: string | undefined): boolean {
  if (!ifModifiedSince) return false;
  const since = Date.parse(ifModifiedSince);
  // HTTP dates are to the second: the change's second is what Last-Modified said.
  return Number.isFinite(since) && Math.floor(updatedAt / 1000) * 1000 <= since;
}

/** Apple's log lines as they are logged: at most 20, each trimmed to one line of at most 500 characters. */
export const MAX_LOG_LINES = 20;
export const logLines = (logs: string[]) =>
  logs
    .slice(0, MAX_LOG_LINES)
    .map((line) => line.replace(/\s+/g, " ").trim().slice(0, 500))
    .filter((line) => line !== "");
