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

/**
 * The host's **Announce** (issue 37): a line for the room's screen and the guests' phones, shown until
 * the next round starts. Short enough to read from the back of the room.
 */
export const ROOM_ANNOUNCEMENT = { maxLength: 140 } as const;
