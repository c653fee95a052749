import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Nights short of numbers (issue 52, part 3): when the organiser cancels such a night (**Cancel the
// night**) or moves its guests (**Move to another night**), each paid guest chooses what happens to
// their booking, through a signed link, until a deadline (72 hours); a guest who doesn't choose gets
// the refund. Australian Consumer Law: a refund is always one of the choices.

export const guestChoiceKinds = ["cancel", "move"] as const;
export type GuestChoiceKind = (typeof guestChoiceKinds)[number];
/** `move`: keep the seat on the new night (a move only). */
export const guestChoiceValues = ["refund", "credit", "move"] as const;
export type GuestChoiceValue = (typeof guestChoiceValues)[number];

/**
 * One row per paid booking of a cancelled or moved night. `heldBookingId` is the seat held for the
 * guest on `toEventId` until they choose. `choice` and `chosenAt` are set once, by the guest or, at
 * `deadline`, by the scheduler (`refund`); `settledAt` once the refund, the credit or the move is done.
 */
export const guestChoices = sqliteTable(
  "guest_choices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bookingId: integer("booking_id").notNull(),
    eventId: integer("event_id").notNull(),
    kind: text("kind", { enum: guestChoiceKinds }).notNull(),
    toEventId: integer("to_event_id"),
    heldBookingId: integer("held_booking_id"),
    refundCents: integer("refund_cents").notNull(),
    creditCents: integer("credit_cents").notNull(),
    deadline: integer("deadline").notNull(),
    choice: text("choice", { enum: guestChoiceValues }),
    chosenAt: integer("chosen_at"),
    settledAt: integer("settled_at"),
    createdAt: integer("created_at").notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [uniqueIndex("guest_choices_booking").on(t.bookingId), index("guest_choices_event").on(t.eventId)],
);

export type GuestChoice = typeof guestChoices.$inferSelect;
