import type { EventSummary } from "../events/types.ts";

export type Gender = "male" | "female";

/** What /confirmation receives in navigation state, and hands to checkout. */
export type BookingUser = { userID: number; name: string; email: string; phone: string; gender: Gender };
export type ConfirmationState = { user: BookingUser; event: EventSummary };
