/**
 * **Message guests** (docs/decisions/019-running-the-night.md): the limits the server checks and the
 * dialog shows, and the text as it is sent, so the dialog shows the guests' exact text.
 */
export const GUEST_MESSAGE = {
  /** Two SMS segments at most, for what the organiser types. */
  maxLength: 320,
  /** Messages per event per hour. */
  perHour: 5,
} as const;

/** The SMS each guest gets: the event's name first, so a text from an unknown number says who it is from. */
export const guestMessageBody = (eventName: string, text: string) => `${eventName}: ${text.trim()}`;
