import { canonicalTimeZone } from "../../common/venue-time-input.ts";

// The hostile values the bad-input suite puts into every field, and what each field accepts under
// docs/api.md, so a value that happens to be legal for a field is never counted as bad input.

export type Kind =
  | "id"
  | "phone"
  | "countryCode"
  | "otp"
  | "email"
  | "gender"
  | "date"
  | "time"
  | "seats"
  | "genderSeats"
  | "amount"
  | "hours"
  | "age"
  | "feedback"
  | "clientTs"
  | "sessionId"
  | "checkoutId"
  | "imageName"
  | "text"
  | "any"
  | "file"
  | "timeZone"
  | "roundMinutes"
  | "breakMinutes"
  | "maxRounds"
  | "roundsAction"
  | "roundsCurrent"
  | "roundsPhase"
  | "audience"
  | "messageID"
  | "idPair"
  | "boolean"
  | "formBoolean"
  | "formTick"
  | "share"
  | "documentNumber"
  | "documentKind"
  | "month"
  | "reportFormat"
  | "cancelAs"
  | "guestChoice";

/** `untrimmed`: any string of 1..max characters is legal as it is (a door code is compared as typed). */
export type Field = { kind: Kind; base: unknown; optional?: boolean; max?: number; untrimmed?: boolean };

export const HUGE = "A".repeat(100 * 1024);

export const HOSTILE: readonly (readonly [string, unknown])[] = [
  ["zero", 0],
  ["negative", -1],
  ["fraction", 1.5],
  ["huge number", 1e308],
  ["beyond safe integer", 2 ** 53 + 2],
  ["tiny float", 5e-324],
  ["true", true],
  ["false", false],
  ["null", null],
  ["empty object", {}],
  ["operator object", { $gt: "" }],
  ["empty array", []],
  ["array", [1, 2]],
  ["nested", { a: [{ b: {} }] }],
  ["empty string", ""],
  ["blank", "   "],
  ["NaN text", "NaN"],
  ["Infinity text", "-Infinity"],
  ["hex text", "0x1F"],
  ["exponent text", "1e3"],
  ["negative text", "-5"],
  ["decimal text", "2.75"],
  ["40 digits", "9".repeat(40)],
  ["arabic digits", "٤٢"],
  ["full-width digits", "１２"],
  ["SQL quote", "' OR '1'='1' --"],
  ["SQL drop", "1; DROP TABLE events; --"],
  ["SQL union", "0 UNION SELECT name, sql FROM sqlite_master"],
  ["XSS tag", "<script>alert(1)</script>"],
  ["XSS attribute", '"><img src=x onerror=alert(1)>'],
  ["traversal", "../../../../etc/passwd"],
  ["windows traversal", "..\\..\\..\\windows\\win.ini"],
  ["encoded traversal", "%2e%2e%2f%2e%2e%2fetc%2fpasswd"],
  ["NUL inside", "abc\u0000def"],
  ["NUL", "\u0000"],
  ["RTL override", "\u202Egpj.exe"],
  ["emoji", "💘".repeat(40)],
  ["lone surrogate", "\uD800"],
  ["control characters", "\u0007\u001b[31m\b"],
  ["header injection", "a\r\nSet-Cookie: sdt_admin=1"],
  ["100 KB string", HUGE],
];

/** Path segments sent without encoding: traversal, broken percent-encoding, overlong UTF-8. */
export const RAW_SEGMENTS: readonly string[] = [
  "..%2F..%2Fdb%2Fapp.db",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "%2e%2e",
  "....%2F%2F....%2F%2Fetc%2Fpasswd",
  "%5C..%5C..%5Cwin.ini",
  "%",
  "%zz",
  "%E0%A4%A",
  "%C0%AE%C0%AE%C0%AF",
  "%00",
  "1%00.jpg",
  "1;DROP%20TABLE%20events",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "%F0%9F%92%98",
  "-1",
  "0",
  "1.5",
  "1e3",
  "0x10",
  "99999999999999999999999",
];

/** Multipart and URLs carry text only: how a non-string hostile value travels there. */
export const asText = (v: unknown): string =>
  typeof v === "string" ? v : typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);

// Admin numbers accept numeric text ("12", " 12 ") as well as numbers; the superset is used here, so
// anything a route might accept counts as maybe-valid.
const looseNumber = (v: unknown) =>
  typeof v === "number" ? v : typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : Number.NaN;
const inRange = (v: unknown, min: number, max: number, integer: boolean) => {
  const n = looseNumber(v);
  return Number.isFinite(n) && n >= min && n <= max && (!integer || Number.isInteger(n));
};

const accepts: Record<Kind, (v: unknown) => boolean> = {
  id: (v) => inRange(v, 1, Number.MAX_SAFE_INTEGER, true),
  phone: (v) => typeof v === "string" && /^(\+?61|0)?4\d{8}$/.test(v.replace(/[\s-]/g, "")),
  countryCode: (v) => v === "+61",
  otp: (v) => /^\d{4,10}$/.test(asText(v).trim()),
  email: (v) => typeof v === "string" && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v.trim()),
  gender: (v) => v === "male" || v === "female",
  date: (v) => typeof v === "string" && /^\s*\d{4}-\d{2}-\d{2}\s*$/.test(v),
  time: (v) => typeof v === "string" && /^\s*\d{1,2}:\d{1,2}\s*$/.test(v),
  seats: (v) => inRange(v, 1, 10_000, true),
  // A balanced event's seats for one gender: none is legal (decision 015).
  genderSeats: (v) => inRange(v, 0, 10_000, true),
  amount: (v) => inRange(v, 0, 100_000, false),
  hours: (v) => inRange(v, Number.MIN_VALUE, 24, false),
  age: (v) => inRange(v, 18, 99, true),
  feedback: (v) => v === "like" || v === "friend" || v === "dislike",
  // What a match may see (issue 37).
  share: (v) => v === "mobile" || v === "email" || v === "instagram" || v === "nothing",
  clientTs: (v) => typeof v === "number" && Number.isSafeInteger(v) && v > 0,
  sessionId: (v) => typeof v === "string" && /^cs_[A-Za-z0-9_]{1,250}$/.test(v),
  checkoutId: (v) => typeof v === "string" && /^cs_local_[a-f0-9]{24}$/.test(v),
  imageName: (v) => typeof v === "string" && /^[a-f0-9]{32}(-thumb)?\.jpg$/.test(v),
  text: (v) => typeof v === "string" && v.trim().length > 0,
  any: () => true,
  file: () => false,
  timeZone: (v) => typeof v === "string" && canonicalTimeZone(v.trim()) !== null,
  roundMinutes: (v) => inRange(v, 1, 30, true),
  breakMinutes: (v) => inRange(v, 0, 10, true),
  maxRounds: (v) => v === null || inRange(v, 1, 200, true),
  roundsAction: (v) => typeof v === "string" && ["start", "pause", "resume", "extend", "next", "finish"].includes(v),
  roundsCurrent: (v) => v === null || inRange(v, 0, 10_000, true),
  roundsPhase: (v) => v === null || v === "round" || v === "break",
  audience: (v) => v === "all" || v === "arrived" || v === "not_arrived",
  messageID: (v) => typeof v === "string" && /^[A-Za-z0-9_-]{8,64}$/.test(v),
  // Keep apart's two guests: two different ids.
  idPair: (v) =>
    Array.isArray(v) && v.length === 2 && v.every((id) => accepts.id(id)) && looseNumber(v[0]) !== looseNumber(v[1]),
  boolean: (v) => typeof v === "boolean",
  // A multipart form's yes/no (save-user-details' keepDetails, useSavedPhoto): the text "true" or "false".
  formBoolean: (v) => asText(v) === "true" || asText(v) === "false",
  // A ticked checkbox of a multipart form (the details form's marketing boxes): the text "1".
  formTick: (v) => asText(v) === "1",
  // A receipt's, invoice's or adjustment note's number, and which of a booking's documents (decision 032).
  documentNumber: (v) => typeof v === "string" && /^INV-\d{6,9}$/.test(v),
  documentKind: (v) => v === "invoice" || v === "adjustment",
  month: (v) => typeof v === "string" && /^\d{4}-(0[1-9]|1[0-2])$/.test(v),
  reportFormat: (v) => v === "json" || v === "csv",
  // cancel-booking's `as` (issue 52): a refund under the policy, or credit.
  cancelAs: (v) => v === "refund" || v === "credit",
  // A guest's choice of a cancelled or moved night (issue 52 part 3): refund, credit, or keep the seat.
  guestChoice: (v) => v === "refund" || v === "credit" || v === "move",
};

/** Whether `value` could be a legal value of the field (then a 2xx would not be a bug). */
export function maybeValid(field: Field, value: unknown): boolean {
  if (value === undefined || (value === null && field.optional && field.kind === "text"))
    return Boolean(field.optional);
  if (field.kind === "text" && typeof value === "string") {
    if (field.max !== undefined && value.trim().length > field.max) return false;
    // Optional text has no minimum: an empty name of the event is as good as none.
    if (field.optional || field.untrimmed) return field.untrimmed ? value.length > 0 : true;
  }
  return accepts[field.kind](value);
}
