import { eq, inArray, max } from "drizzle-orm";
import { clockAsUtc } from "../../common/time-zone.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { bookings, type Event } from "../../db/schema.ts";
import { walletPasses, walletRegistrations } from "../../db/wallet-schema.ts";
import type { Env } from "../env.ts";
import type { Logger } from "../lib/log.ts";
import { deliverPending, enqueueWalletUpdate } from "../messaging/outbox.ts";
import type { SmsProvider } from "../providers/sms/types.ts";
import type { WalletPushProvider } from "../providers/wallet/types.ts";
import type { WalletKeys } from "./keys.ts";
import { type PassFacts, passFacts } from "./pass-facts.ts";

// When a ticket changes, its wallet passes follow (docs/decisions/055-wallet-updates.md): the pass's
// tag grows, and a push to each Apple device that keeps it and a PATCH of Google's copy are queued in
// the outbox, in the transaction that made the change, so they exist exactly when the change does.

/** What queuing needs: the settings the pass facts read, and which wallets are configured. */
export type PassChangeDeps = {
  env: Pick<Env, "PUBLIC_BASE_URL" | "BUSINESS_NAME" | "SUPPORT_EMAIL">;
  /** Absent or null: that wallet is not configured, and nothing is queued for it. */
  wallet?: WalletKeys;
};

/** Google's language tag for the texts of a class (the product speaks Australian English). */
const LANGUAGE = "en-AU";

/** `2026-11-29T19:00:00+11:00`: the instant on the venue's clock with its offset, as Google's dateTime takes it. */
export function isoWithOffset(ms: number, zone: string): string {
  const whole = Math.floor(ms / 1000) * 1000;
  const clock = clockAsUtc(whole, zone);
  const offset = Math.round((clock - whole) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
  const mm = String(Math.abs(offset) % 60).padStart(2, "0");
  return `${new Date(clock).toISOString().slice(0, 19)}${sign}${hh}:${mm}`;
}

const localized = (value: string) => ({ defaultValue: { language: LANGUAGE, value } });

/**
 * What Google's copy of the event's class is PATCHed with when a ticket still valid changed: its
 * event's name, venue and times as they are now (a moved night, a new address). Nothing about a guest.
 */
export function googleClassPatch(facts: PassFacts) {
  return {
    eventName: localized(facts.eventName),
    venue: { name: localized(facts.venueName), address: localized(facts.address) },
    dateTime: {
      start: isoWithOffset(facts.startsAt, facts.timeZone),
      end: isoWithOffset(facts.endsAt, facts.timeZone),
      doorsOpen: isoWithOffset(facts.doorsOpenAt, facts.timeZone),
    },
  };
}

/**
 * The passes of these bookings changed (a refund, a cancel, the event moved or cancelled): call it
 * inside the transaction that changed them. Each booking with a wallet row gets the next tag of one
 * sequence over all passes (so a device's "changed since" covers every pass it keeps) and `now` as
 * its last change; then one push per registered Apple device, and for a pass saved to Google one
 * PATCH: the ticket's object `INACTIVE` when it no longer gets anyone in, else the event's class
 * with its current name, venue and times. A booking without a wallet row queues nothing. Returns
 * the tag given, or null when no booking had a pass.
 */
export function walletPassesChanged(tx: DbOrTx, deps: PassChangeDeps, bookingIds: number[], now: number) {
  if (bookingIds.length === 0) return null;
  const passes = tx.select().from(walletPasses).where(inArray(walletPasses.bookingId, bookingIds)).all();
  if (passes.length === 0) return null;
  const tag =
    (tx
      .select({ top: max(walletPasses.updateTag) })
      .from(walletPasses)
      .get()?.top ?? 0) + 1;
  tx.update(walletPasses)
    .set({ updateTag: tag, updatedAt: now })
    .where(
      inArray(
        walletPasses.bookingId,
        passes.map((p) => p.bookingId),
      ),
    )
    .run();
  const apple = deps.wallet?.apple ?? null;
  const google = deps.wallet?.google ?? null;
  for (const pass of passes) {
    if (apple) {
      const devices = tx
        .select()
        .from(walletRegistrations)
        .where(eq(walletRegistrations.serialNumber, pass.serialNumber))
        .all();
      for (const device of devices)
        enqueueWalletUpdate(tx, `apns:${device.id}:${tag}`, { channel: "apns", pushToken: device.pushToken });
    }
    if (!google || pass.googleSavedAt === null) continue;
    const facts = passFacts(tx, deps.env, pass.bookingId);
    if (!facts) continue;
    if (!facts.valid) {
      enqueueWalletUpdate(tx, `google-wallet:${pass.bookingId}:${tag}`, {
        channel: "google_wallet",
        resource: "eventTicketObject",
        id: `${google.issuerId}.ticket-${pass.serialNumber}`,
        patch: { state: "INACTIVE" },
      });
    } else {
      // One PATCH of the class per event and change, however many of its tickets were saved.
      enqueueWalletUpdate(tx, `google-wallet-class:${facts.eventId}:${tag}`, {
        channel: "google_wallet",
        resource: "eventTicketClass",
        id: `${google.issuerId}.event-${facts.eventId}`,
        patch: googleClassPatch(facts),
      });
    }
  }
  return tag;
}

/** Every booking of an event: what an event's change (cancelled, moved) reaches; those without a pass queue nothing. */
export function walletPassesOfEventChanged(tx: DbOrTx, deps: PassChangeDeps, eventId: number, now: number) {
  const ids = tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(eq(bookings.eventId, eventId))
    .all()
    .map((b) => b.id);
  return walletPassesChanged(tx, deps, ids, now);
}

/** The event's columns a pass shows (its name, time, zone, length, doors, venue): an edit of another changes no pass. */
const SHOWN_ON_PASS = [
  "name",
  "startsAt",
  "timeZone",
  "durationHours",
  "doorsOpenAt",
  "address",
  "venueNotes",
] as const;

/** An edit of an event, inside its transaction: its passes change when a field they show did. */
export function eventEdited(tx: DbOrTx, deps: PassChangeDeps, before: Event, after: Event, now: number) {
  if (SHOWN_ON_PASS.every((field) => before[field] === after[field])) return null;
  return walletPassesOfEventChanged(tx, deps, after.id, now);
}

/** What sending needs: the outbox's deps with the wallet's sender. */
export type WalletSendDeps = {
  db: Db;
  sms: SmsProvider;
  walletPush?: WalletPushProvider;
  log: Logger;
  now: () => number;
};

/**
 * Sends the queued wallet updates now, after the change committed, rather than at the scheduler's
 * next tick; what fails stays queued for its retry. Without a sender, they wait for a run that has one.
 */
export function sendWalletUpdatesSoon(deps: WalletSendDeps): void {
  if (!deps.walletPush) return;
  deliverPending(deps, { channels: ["apns", "google_wallet"] }).catch((error: unknown) =>
    deps.log("warn", "wallet updates not sent yet; the outbox retries", { error: String(error).slice(0, 200) }),
  );
}
