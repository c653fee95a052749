import type { Env } from "../env.ts";
import { hmac, safeEqual } from "./crypto.ts";

/**
 * Links texted to people are capabilities: `t` is an HMAC with SESSION_SECRET over what the link
 * names AND what it is for, so a token opens one page and nothing else (docs/decisions/011). Holding
 * the link is what lets someone act as that person for that purpose.
 */
export type LinkPurpose =
  /** The start link: the partners page and saving taps. */
  | "feedback-start"
  /** The end link: the report (matches, who liked you, phones of mutual likes). */
  | "feedback-report"
  /** The confirmation SMS's link that shows and saves the ticket on whatever phone opens it. */
  | "ticket"
  /** A waitlist offer: proves the phone it was texted to. */
  | "waitlist-offer"
  /** A host link: signs a staff phone in to one night's door and rounds (docs/decisions/022-host-access.md). */
  | "host"
  /** A marketing message's way out (issue 36): names a marketing contact by id, never its address. */
  | "unsubscribe"
  /** A ticked email box's confirmation email (docs/decisions/039): names the contact by id. */
  | "email-consent"
  /** A ticket given to a friend: names the transfer offer by id (docs/decisions/058-ticket-transfer.md). */
  | "transfer"
  /** A guest's choice of a cancelled or moved night: names the guest_choices row (docs/decisions/059-short-of-numbers.md). */
  | "guest-choice";

type Secret = Pick<Env, "SESSION_SECRET">;

export function linkToken(env: Secret, purpose: LinkPurpose, ...ids: number[]): string {
  return hmac(env.SESSION_SECRET, `link:${purpose}`, ids.join(":"));
}

export function isValidLinkToken(env: Secret, purpose: LinkPurpose, ids: number[], token: unknown): boolean {
  return typeof token === "string" && token.length < 200 && safeEqual(token, linkToken(env, purpose, ...ids));
}

export type FeedbackPage = "start" | "report";

/** The `t` of the feedback links texted at start (partners page) and end (report). */
export const feedbackToken = (env: Secret, page: FeedbackPage, userId: number, eventId: number) =>
  linkToken(env, `feedback-${page}`, userId, eventId);

export const isValidFeedbackToken = (
  env: Secret,
  page: FeedbackPage,
  userId: number,
  eventId: number,
  token: unknown,
) => isValidLinkToken(env, `feedback-${page}`, [userId, eventId], token);

export const participantFeedbackLink = (env: Env, userId: number, eventId: number) =>
  `${env.PUBLIC_BASE_URL}/ParticipantFeedback?par1=${userId}&par2=${eventId}&t=${feedbackToken(env, "start", userId, eventId)}`;

export const eventFeedbackLink = (env: Env, userId: number, eventId: number) =>
  `${env.PUBLIC_BASE_URL}/EventFeedback?par1=${eventId}&par2=${userId}&t=${feedbackToken(env, "report", userId, eventId)}`;

/** The confirmation SMS's ticket link: shows the ticket and saves it on the phone that opens it. */
export const savedTicketLink = (env: Env, bookingId: number) =>
  `${env.PUBLIC_BASE_URL}/tickets?add=${bookingId}&t=${linkToken(env, "ticket", bookingId)}`;
