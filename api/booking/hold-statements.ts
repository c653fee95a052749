import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { bookings, events, users, waitlistOffers } from "../../db/schema.ts";
import { liveOffer } from "./seats.ts";

/**
 * The statements of a first save's hold, compiled once per connection: drizzle builds a query's SQL
 * anew each time it runs, and in a hold that was most of the time spent under the write lock
 * (docs/decisions/007-scale.md, "Seat holds"). Each is the query it replaces, with placeholders; run
 * inside a transaction on the same connection, they read and write in it.
 */
const holdStatements = new WeakMap<Db, ReturnType<typeof prepareHoldStatements>>();

function prepareHoldStatements(db: Db) {
  const p = (name: string) => sql.placeholder(name);
  return {
    event: db
      .select()
      .from(events)
      .where(eq(events.id, p("eventId")))
      .prepare(),
    /** This phone's bookings for the event: a first save has none. */
    earlier: db
      .select({
        status: bookings.status,
        holdExpiresAt: bookings.holdExpiresAt,
        heldSince: sql<number>`coalesce(${bookings.heldSince}, ${bookings.createdAt})`,
      })
      .from(bookings)
      .where(and(eq(bookings.phone, p("phone")), eq(bookings.eventId, p("eventId"))))
      .prepare(),
    /** liveOfferFor (waitlist-offers.ts). */
    liveOffer: db
      .select()
      .from(waitlistOffers)
      .where(and(eq(waitlistOffers.eventId, p("eventId")), eq(waitlistOffers.phone, p("phone")), liveOffer(p("now"))))
      .prepare(),
    insertUser: db
      .insert(users)
      .values({
        name: p("name"),
        email: p("email"),
        phone: p("phone"),
        gender: p("gender"),
        wantsToMeet: p("wantsToMeet"),
        imageName: p("imageName"),
        thumbName: p("thumbName"),
        dateOfBirth: p("dateOfBirth"),
      })
      .returning({ id: users.id })
      .prepare(),
    insertHold: db
      .insert(bookings)
      .values({
        userId: p("userId"),
        eventId: p("eventId"),
        phone: p("phone"),
        status: "held",
        holdExpiresAt: p("holdExpiresAt"),
        heldSince: p("heldSince"),
        listPriceCents: p("listPriceCents"),
        earlyBirdCents: p("earlyBirdCents"),
        discountCents: p("discountCents"),
        promoCodeId: p("promoCodeId"),
        amountCents: p("amountCents"),
        announcementId: p("announcementId"),
      })
      .returning({ id: bookings.id })
      .prepare(),
  };
}

/** The hold's statements on this connection, compiled on first use. */
export function holdStatementsOf(db: Db) {
  let statements = holdStatements.get(db);
  if (!statements) {
    statements = prepareHoldStatements(db);
    holdStatements.set(db, statements);
  }
  return statements;
}
