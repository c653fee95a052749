import { INVISIBLE_CONTROLS_MESSAGE, withoutInvisibleControls } from "../../common/plain-text.ts";

/**
 * How a reply names a request's field: error messages are read by people (the PWA shows them), so
 * none starts with a field's code name such as `clientTs:`. A field not listed is named by its code
 * name split into words ("the event ID").
 */
const FIELD_NAMES: Record<string, string> = {
  eventName: "The event's name",
  eventDate: "The date",
  eventTime: "The start time",
  eventAddress: "The address",
  eventImage: "The picture",
  eventduration: "The duration",
  durationHours: "The duration",
  totalSeats: "The number of seats",
  seatsMale: "Men's seats",
  seatsFemale: "Women's seats",
  bookingAmount: "The price",
  priceMale: "Men's price",
  priceFemale: "Women's price",
  fromage: "The youngest age",
  toage: "The oldest age",
  timeZone: "The time zone",
  resultsAt: "The results time",
  phone: "The phone number",
  countryCode: "The country code",
  otp: "The code",
  signIn: "Signing in",
  name: "The name",
  email: "The email address",
  gender: "Gender",
  wantsToMeet: "Whom you would like to meet",
  format: "The format",
  dateOfBirth: "The date of birth",
  image: "The photo",
  clientTs: "The phone's time of the tap",
  uniqueCode: "The ticket code",
  code: "The code",
  label: "The label",
  feedback: "The choice",
  password: "The password",
  roundMinutes: "The minutes per round",
  breakMinutes: "The minutes between rounds",
  maxRounds: "The most rounds",
  cancelFullRefundHours: "The hours before the start with a full refund",
  cancelLaterPercent: "The refund percentage after that",
};

export function fieldName(path: readonly PropertyKey[]): string {
  const key = [...path].reverse().find((part): part is string => typeof part === "string");
  if (key === undefined) return "The request";
  if (FIELD_NAMES[key]) return FIELD_NAMES[key];
  const words = key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .replace(/\b(?!ID\b)([A-Z])([a-z])/g, (_, a: string, b: string) => a.toLowerCase() + b);
  return `The ${words}`;
}

/**
 * A zod issue as a sentence a person can read: a message that already is one (it starts with a
 * capital and ends with a stop) is kept; a fragment such as "must be at most 100 characters" follows
 * the field's name; sizes and choices are said in words; anything else "is not valid".
 */
export function issueMessage(issue: {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
  values?: readonly unknown[];
}) {
  const message = issue.message.trim();
  if (/^[A-Z“"'].*[.!?]$/su.test(message)) return message;
  const field = fieldName(issue.path);
  if (issue.code === "invalid_type" && /received undefined$/.test(message)) return `${field} is required.`;
  const unit = issue.origin === "string" ? " characters" : issue.origin === "array" ? " items" : "";
  if (issue.code === "too_small" && typeof issue.minimum !== "object") {
    return `${field} must be at least ${String(issue.minimum)}${unit}.`;
  }
  if (issue.code === "too_big" && typeof issue.maximum !== "object") {
    return `${field} must be at most ${String(issue.maximum)}${unit}.`;
  }
  if (issue.code === "invalid_value" && issue.values) {
    return `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}.`;
  }
  if (/^[a-z]/.test(message)) return `${field} ${message.replace(/[.]$/, "")}.`;
  // zod's own words ("Invalid input: expected string, received number") are for programmers.
  return `${field} is not valid.`;
}

/**
 * A person's name as they type it: 1 to 100 characters, and no control characters (NUL, escape,
 * delete and the like) nor invisible direction characters (common/plain-text.ts), which have no
 * place in a name and would follow it into texts and the CSV.
 */
export const personName = (z: typeof import("zod").z) =>
  z
    .string()
    .trim()
    .min(1, "is required")
    .max(100, "must be at most 100 characters")
    .refine((v) => !/\p{Cc}/u.test(v), "must not contain control characters")
    .refine(withoutInvisibleControls, INVISIBLE_CONTROLS_MESSAGE);

/**
 * Any other free text a client sends (a message, an announcement, a handle): the bidirectional
 * controls and line separators are refused with a 400 naming the field (common/plain-text.ts).
 */
export const plainText = <T extends import("zod").ZodString>(schema: T) =>
  schema.refine(withoutInvisibleControls, INVISIBLE_CONTROLS_MESSAGE);

/** Ids are positive integers; anything else in a path or query is a 400, never a lookup. */
export const idParam = (z: typeof import("zod").z) =>
  z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "must be a positive integer")
    .transform(Number);

/** Ids in JSON bodies: the PWA sends numbers, but links and query parameters carry numeric text. */
export const jsonId = (z: typeof import("zod").z) =>
  z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), idParam(z)]);
