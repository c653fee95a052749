import type { Gender } from "./types.ts";

/** How a gender is named in the seat messages, as the server names it: "no seats left for men". */
export const genderPlural = (gender: Gender) => (gender === "male" ? "men" : "women");

/** What the details form says when the chosen gender's seats are gone at a balanced event. */
export const genderFullMessage = (gender: Gender) =>
  `No seats left for ${genderPlural(gender)}. Join the waitlist and we'll text you when a seat frees up.`;

/** The alert when every seat of the event is gone as the details form saves. */
export const SOLD_OUT_ALERT = "Sorry,no more seats are available for booking currently.Please try after some time.";

/** After the sold-out alert (`SOLD_OUT_ALERT`), the same offer for a whole event that is full. */
export const SOLD_OUT_WAITLIST_MESSAGE =
  "This event is sold out. Join the waitlist and we'll text you when a seat frees up.";
