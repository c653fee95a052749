/**
 * The no-match promise's words (issue 52, docs/decisions/060-no-match-promise.md), one place for the
 * organiser's checkbox, the event card and the booking confirmation.
 */
export const NO_MATCH_PROMISE = "No match? Your next night is on us.";
