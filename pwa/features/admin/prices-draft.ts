import { utcToWallClock } from "../../../common/time-zone.ts";
import type { AdminEventDetail, EventUpdate, NewEvent } from "./admin-api.ts";

/**
 * The **Prices** group and the per-gender ages as the Add and Edit forms hold them: text as typed,
 * "" for a field left empty (docs/decisions/023-prices-and-ages.md). The early-bird deadline is a
 * datetime-local value on the venue's clock, which is what the API takes.
 */
export type PricesDraft = {
  priceMale: string;
  priceFemale: string;
  earlyBird: string;
  earlyBirdUntil: string;
  fromAgeMale: string;
  toAgeMale: string;
  fromAgeFemale: string;
  toAgeFemale: string;
};

export const emptyPrices = (): PricesDraft => ({
  priceMale: "",
  priceFemale: "",
  earlyBird: "",
  earlyBirdUntil: "",
  fromAgeMale: "",
  toAgeMale: "",
  fromAgeFemale: "",
  toAgeFemale: "",
});

const pad = (n: number) => String(n).padStart(2, "0");
const money = (aud: number | null | undefined) => (aud === null || aud === undefined ? "" : aud.toFixed(2));
const whole = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));

/** `2026-12-20T18:00` on the venue's clock, as a datetime-local input shows it. */
export function localDateTime(iso: string | null | undefined, zone: string): string {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) return "";
  const c = utcToWallClock(ms, zone);
  return `${c.date}T${pad(c.hour)}:${pad(c.minute)}`;
}

export const pricesOf = (e: AdminEventDetail): PricesDraft => ({
  priceMale: money(e.bookingAmountMale),
  priceFemale: money(e.bookingAmountFemale),
  earlyBird: money(e.earlyBirdDiscount),
  earlyBirdUntil: localDateTime(e.earlyBirdUntil, e.timeZone),
  fromAgeMale: whole(e.fromAgeMale),
  toAgeMale: whole(e.toAgeMale),
  fromAgeFemale: whole(e.fromAgeFemale),
  toAgeFemale: whole(e.toAgeFemale),
});

/** The early bird needs its amount and its deadline together; null when the group may be sent. */
export function pricesProblem(p: PricesDraft): string | null {
  if ((p.earlyBird.trim() === "") !== (p.earlyBirdUntil.trim() === "")) {
    return "Give the early-bird discount and the date it ends, or neither.";
  }
  return null;
}

type PriceFields = Pick<
  EventUpdate,
  | "bookingAmountMale"
  | "bookingAmountFemale"
  | "earlyBirdDiscount"
  | "earlyBirdUntil"
  | "fromAgeMale"
  | "toAgeMale"
  | "fromAgeFemale"
  | "toAgeFemale"
>;

const fieldNames: Record<keyof PricesDraft, keyof PriceFields> = {
  priceMale: "bookingAmountMale",
  priceFemale: "bookingAmountFemale",
  earlyBird: "earlyBirdDiscount",
  earlyBirdUntil: "earlyBirdUntil",
  fromAgeMale: "fromAgeMale",
  toAgeMale: "toAgeMale",
  fromAgeFemale: "fromAgeFemale",
  toAgeFemale: "toAgeFemale",
};

/** save-event's multipart fields: only the ones filled in. */
export function pricesForNew(p: PricesDraft): Partial<NewEvent> {
  const out: Record<string, string> = {};
  for (const [key, name] of Object.entries(fieldNames) as [keyof PricesDraft, keyof PriceFields][]) {
    if (p[key].trim() !== "") out[name] = p[key].trim();
  }
  return out as Partial<NewEvent>;
}

/** update-event's body: every field, an emptied one as null so it is cleared. */
export function pricesForUpdate(p: PricesDraft): PriceFields {
  const out: Record<string, string | number | null> = {};
  for (const [key, name] of Object.entries(fieldNames) as [keyof PricesDraft, keyof PriceFields][]) {
    const value = p[key].trim();
    out[name] = value === "" ? null : key === "earlyBirdUntil" ? value : Number(value);
  }
  return out as PriceFields;
}
