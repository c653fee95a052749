import type { Env } from "../env.ts";
import { hmac, safeEqual } from "./crypto.ts";

/**
 * The `t` of the feedback links texted at start and end: an HMAC of user and event with
 * SESSION_SECRET. Holding the link is what lets someone act as that participant of that event.
 */
export function feedbackToken(env: Pick<Env, "SESSION_SECRET">, userId: number, eventId: number): string {
  return hmac(env.SESSION_SECRET, "feedback-link", `${userId}:${eventId}`);
}

export function isValidFeedbackToken(
  env: Pick<Env, "SESSION_SECRET">,
  userId: number,
  eventId: number,
  token: unknown,
): boolean {
  return typeof token === "string" && token.length < 200 && safeEqual(token, feedbackToken(env, userId, eventId));
}

export const participantFeedbackLink = (env: Env, userId: number, eventId: number) =>
  `${env.PUBLIC_BASE_URL}/ParticipantFeedback?par1=${userId}&par2=${eventId}&t=${feedbackToken(env, userId, eventId)}`;

export const eventFeedbackLink = (env: Env, userId: number, eventId: number) =>
  `${env.PUBLIC_BASE_URL}/EventFeedback?par1=${eventId}&par2=${userId}&t=${feedbackToken(env, userId, eventId)}`;
