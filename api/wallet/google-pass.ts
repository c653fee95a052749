import { createPrivateKey, sign } from "node:crypto";
import { OVER_AFTER_PLANNED_END_MS } from "../../common/ticket-status.ts";
import { clockAsUtc } from "../../common/time-zone.ts";
import type { Env } from "../env.ts";
import type { GoogleWalletKeys } from "./keys.ts";
import type { PassFacts } from "./pass-facts.ts";

// The Google Wallet save link (issue 50, docs/decisions/053-wallet-passes.md): a JWT the organiser's
// service account signs (RS256), carrying the event's EventTicketClass and the ticket's
// EventTicketObject as Google's REST reference defines them. Made here with node:crypto: nothing is
// fetched from Google to make it; Google reads it when the guest opens the link.

export const GOOGLE_SAVE_URL = "https://pay.google.com/gp/v/save/";

/** The ids both wallets' code shares: one class per event, one object per ticket's wallet row. */
export const googleClassId = (issuerId: string, eventId: number) => `${issuerId}.event-${eventId}`;
export const googleObjectId = (issuerId: string, serialNumber: string) => `${issuerId}.ticket-${serialNumber}`;

/**
 * `2026-11-29T19:00:00+11:00`: the instant on the venue's clock with its offset, as Google's
 * `dateTime` wants it (a time without an offset is read as the venue's local time, which Google then
 * guesses from the address).
 */
export function isoWithOffset(ms: number, zone: string): string {
  const whole = Math.floor(ms / 1000) * 1000;
  const local = clockAsUtc(whole, zone);
  const offsetMinutes = Math.round((local - whole) / 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${new Date(local).toISOString().slice(0, 19)}${sign}${hh}:${mm}`;
}

const localized = (value: string) => ({ defaultValue: { language: "en-AU", value } });

/** The event's class: what every ticket of the night shares. */
export function eventTicketClass(keys: GoogleWalletKeys, facts: PassFacts) {
  return {
    id: googleClassId(keys.issuerId, facts.eventId),
    issuerName: facts.businessName,
    eventName: localized(facts.eventName),
    venue: { name: localized(facts.venueName), address: localized(facts.address) },
    dateTime: {
      doorsOpen: isoWithOffset(facts.doorsOpenAt, facts.timeZone),
      start: isoWithOffset(facts.startsAt, facts.timeZone),
      end: isoWithOffset(facts.endsAt, facts.timeZone),
    },
    reviewStatus: "UNDER_REVIEW",
  };
}

/**
 * The ticket's object. A ticket that no longer gets anyone in is INACTIVE, says `NOT VALID` and why,
 * and carries no barcode (as the Apple pass and the ticket page: no scanner reads a dead ticket).
 */
export function eventTicketObject(keys: GoogleWalletKeys, facts: PassFacts) {
  const modules = [
    ...(facts.valid ? [] : [{ id: "status", header: "NOT VALID", body: facts.notValidReason ?? "Not valid" }]),
    { id: "when", header: "When", body: `${facts.startsAtText} (doors open ${facts.doorsOpenText})` },
    ...(facts.venueNotes ? [{ id: "venue-notes", header: "Venue notes", body: facts.venueNotes }] : []),
    { id: "organiser", header: facts.businessName, body: `Questions: ${facts.supportEmail}` },
  ];
  return {
    id: googleObjectId(keys.issuerId, facts.serialNumber),
    classId: googleClassId(keys.issuerId, facts.eventId),
    state: facts.valid ? "ACTIVE" : "INACTIVE",
    ticketHolderName: facts.guestName,
    ticketNumber: facts.ticketCode,
    ...(facts.valid ? { barcode: { type: "QR_CODE", value: facts.qrPayload, alternateText: facts.ticketCode } } : {}),
    // Google greys the pass out after this, as Apple's expirationDate does: the night is over by then.
    validTimeInterval: {
      end: { date: isoWithOffset(facts.endsAt + OVER_AFTER_PLANNED_END_MS, facts.timeZone) },
    },
    textModulesData: modules,
  };
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** The save link for a ticket: `https://pay.google.com/gp/v/save/{jwt}`, the JWT signed RS256 with the service account's key. */
export function googleSaveLink(
  keys: GoogleWalletKeys,
  env: Pick<Env, "PUBLIC_BASE_URL">,
  facts: PassFacts,
  now: number,
): string {
  const header = { alg: "RS256", typ: "JWT", ...(keys.privateKeyId ? { kid: keys.privateKeyId } : {}) };
  const claims = {
    iss: keys.clientEmail,
    aud: "google",
    typ: "savetowallet",
    iat: Math.floor(now / 1000),
    // The sites allowed to show a Save button for this JWT: only this app's.
    origins: [new URL(env.PUBLIC_BASE_URL).origin],
    payload: {
      eventTicketClasses: [eventTicketClass(keys, facts)],
      eventTicketObjects: [eventTicketObject(keys, facts)],
    },
  };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = sign("RSA-SHA256", Buffer.from(unsigned), createPrivateKey(keys.privateKey));
  return `${GOOGLE_SAVE_URL}${unsigned}.${signature.toString("base64url")}`;
}
