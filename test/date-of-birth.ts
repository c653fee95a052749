/**
 * A date of birth thirty years back (29 or 30 on any night within the coming year): inside the
 * fixture events' 25–35 range whenever the tests run, not only until a fixed date ages out of it.
 */
export const ADULT_DATE_OF_BIRTH = `${new Date().getUTCFullYear() - 30}-05-03`;
