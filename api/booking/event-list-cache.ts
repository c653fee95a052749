import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { and, eq, gt, min } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { bookings, events, waitlistOffers } from "../../db/schema.ts";
import { changeStamp } from "../../db/sqlite.ts";
import { listEvents } from "./events.ts";
import { liveOffer } from "./seats.ts";

export type EncodedList = { json: Buffer; gzip: Buffer; br: Buffer };

/**
 * GET /api/get-events is the hottest call (every phone opening the app), and its answer only
 * changes when the database does or when a seat hold expires. So the serialised, compressed list is
 * kept until one of those happens:
 * - the database's change stamp moves (a write by this connection or another process's commit);
 * - the soonest live hold's or waitlist offer's expiry passes (a seat comes back without any write);
 * - the soonest early bird ends (`currentAmount` goes up without any write).
 */
export function createEventListCache(db: Db) {
  const stampNow = changeStamp(db);
  let cached: { stamp: string; validUntil: number; list: EncodedList } | undefined;

  return (now: number): EncodedList => {
    const stamp = stampNow();
    if (cached && cached.stamp === stamp && now < cached.validUntil) {
      return cached.list;
    }
    const json = Buffer.from(JSON.stringify(listEvents(db, now)));
    const nextHoldExpiry = db
      .select({ at: min(bookings.holdExpiresAt) })
      .from(bookings)
      .where(and(eq(bookings.status, "held"), gt(bookings.holdExpiresAt, now)))
      .get()?.at;
    const nextOfferExpiry = db
      .select({ at: min(waitlistOffers.expiresAt) })
      .from(waitlistOffers)
      .where(liveOffer(now))
      .get()?.at;
    const nextEarlyBirdEnd = db
      .select({ at: min(events.earlyBirdUntil) })
      .from(events)
      .where(gt(events.earlyBirdUntil, now))
      .get()?.at;
    cached = {
      stamp,
      validUntil: Math.min(
        nextHoldExpiry ?? Number.POSITIVE_INFINITY,
        nextOfferExpiry ?? Number.POSITIVE_INFINITY,
        nextEarlyBirdEnd ?? Number.POSITIVE_INFINITY,
      ),
      list: {
        json,
        gzip: gzipSync(json, { level: 6 }),
        br: brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
      },
    };
    return cached.list;
  };
}
