/**
 * Every error reply is `{ success: false, error, code }`: `error` is a short reason for people and
 * may be reworded, `code` is stable and is what a client branches on. This is the one list of codes;
 * docs/api.md says which call answers which. A code is added here, never renamed.
 */
export const ERROR_CODES = {
  // 400: the request itself is wrong.
  invalid_request: "a field is missing or malformed; `error` names it",
  doors_not_open: "the check-in is dated before the doors open (`doorsOpenAt` says when, `timeZone` on which clock)",
  doors_after_start: "the doors-open time is after the event's start (a door opens no later than the night begins)",
  wrong_code: "the one-time code does not match",
  code_expired: "the one-time code expired or was used; ask for a new one",
  // 401: a session is missing.
  admin_session_required: "the call needs the organiser's session",
  invalid_credentials: "the admin password is wrong",
  host_access_ended: "the host link was revoked or has expired: this phone's host access is over",
  guest_session_required: "the call needs a guest signed in on /me with their mobile (signed out, expired or never)",
  second_factor_required:
    "the owner's password is right but a second factor is required: send `code` (an authenticator or recovery code) or sign in with a passkey",
  choice_link_invalid:
    "the choice link is cut off or altered (its signature does not match): open the link from the text again",
  pass_not_authorized: "the `Authorization: ApplePass …` header is missing or is not this Wallet pass's token",
  // 403: the caller may not do this.
  phone_not_verified: "this browser has not verified the phone number",
  invalid_link: "the link's signature does not match (cut off, altered, or for something else)",
  not_a_participant: "the link's person has no seat at this event",
  forbidden: "not allowed",
  cross_origin: "the request came from another site (its `Origin` or `Sec-Fetch-Site` says so)",
  host_link_not_open:
    "a host link works from the event's doors-open time (`doorsOpenAt` says when, `timeZone` on which clock)",
  // 404
  not_found: "no such thing (event, booking, image, endpoint, …)",
  // 409: the request is fine but the state does not allow it.
  booking_closed: "the event has started, so booking has closed",
  not_taking_bookings: "the event is no longer upcoming (started, ended or cancelled)",
  already_booked: "this phone already has a paid seat for the event",
  sold_out: "no seats are left",
  gender_sold_out: "no seats are left for this gender at a balanced event (`gender` says which)",
  seat_free: "a seat is free, so there is no need to wait: book it",
  already_waiting: "this phone is already on the event's waitlist",
  already_holding: "this phone holds a seat at the event: pay for it or let it go before joining the waitlist",
  hold_expired: "the seat hold ran out before payment; book again",
  already_paid: "this booking is already paid",
  payment_not_completed: "the provider does not report the payment as paid",
  payment_mismatch: "the payment does not belong to this booking",
  refunded: "the booking's payment was refunded",
  not_paid: "the booking is not paid",
  wrong_state: "the event is not in the state this action needs (start, end, cancel, edit)",
  seats_taken: "fewer seats than are already taken (`takenSeats` says how many)",
  feedback_not_open: "ratings open when the event starts",
  event_cancelled: "the event was cancelled",
  results_not_yet: "the matches are not released yet (`resultsAt` says when, `timeZone` on which clock)",
  format_locked: "the night's format and choices are fixed once it is booked or started",
  ratings_closed: "the results were released, so ratings are closed",
  rated_by_guest: "the guest rated this person on their own phone, so a paper card cannot change it",
  age_out_of_range:
    "the buyer's age on the event's date is outside the range for their gender (`fromAge`, `toAge` say which)",
  promo_not_found: "no such promo code for this event",
  promo_expired: "the promo code has expired or was disabled",
  promo_used_up: "the promo code has been used as many times as it may be",
  promo_wrong_gender: "the promo code is for the other gender",
  promo_code_taken: "the event already has a promo code with this name",
  stale_state: "the rounds moved on since the console showed them (`current`, `phase`); reload and press again",
  room_too_large:
    "more people are present than the rounds planner takes (`limit` a side; `present` says how many are here)",
  doors_in_use: "someone is already checked in, so the doors-open time may not move later (earlier is fine)",
  not_checked_in: "the attendee was not checked in at the door, so cannot be marked as left",
  too_late_to_cancel: "the event has started, so the booking can no longer be cancelled",
  credit_closed: "the event's Credit until time has passed: the cancel may be taken as a refund under the policy only",
  credit_changed: "the credit balance changed while the checkout was being made: ask again",
  booking_cancelled: "the guest cancelled this booking, so its ticket is no longer valid",
  transfer_own_number: "a ticket cannot be given to the buyer's own number",
  transfer_has_ticket: "the friend's number already holds a ticket for that night",
  transfer_doors_open:
    "the doors have opened (or the night is over or cancelled), so the ticket can no longer change hands",
  not_transferable: "a ticket that came from a friend cannot be given on again (one move per ticket)",
  transfer_ended:
    "the friend's link was used, replaced by a newer one, or its ticket was refunded, cancelled or given away",
  transfer_wrong_side: "at Women meet men the friend takes the buyer's side (`gender` says which)",
  already_chosen: "this booking's choice was made already (`choice` says which; after the deadline, the refund)",
  not_enough_seats: "the other night has fewer free seats than the guests to move (per side at Women meet men)",
  email_taken: "a team member with this email is already on the team",
  no_second_factor: "the owner has no passkey or authenticator app yet, so a second factor cannot be required",
  // 410
  gone: "the offer or ticket expired or was used",
  setup_link_invalid:
    "the set-up link is unknown, used, expired (72 hours) or its member was removed; ask the owner to resend it",
  // 413, 415, 429
  too_large: "the body or the file is too large",
  not_an_image: "the file is not a JPEG, PNG or WebP image",
  rate_limited: "too many attempts; try again later",
  account_locked: "too many wrong passwords or codes for this account (5 in 15 minutes); try again later",
  // 5xx: not the caller's fault.
  provider_failed: "the payment or SMS provider failed",
  internal_error: "a bug on the server",
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The body of every error reply. Extra fields (`gender`, `takenSeats`, `alreadyBooked`) may follow. */
export type ErrorReply = { success: false; error: string; code: ErrorCode };

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === "string" && Object.hasOwn(ERROR_CODES, value);
