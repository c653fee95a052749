import { z } from "../../lib/openapi.ts";

/** What the app needs from an SMS service. Chosen once at start-up (see providers/sms/index.ts). */
export interface SmsProvider {
  readonly name: "twilio" | "console";
  /** Sends a one-time code to `phone` (E.164). */
  startVerification(phone: string): Promise<void>;
  /** `approved` once; `wrong` for a bad code; `expired` when no live code exists (expired, used, or voided). */
  checkVerification(phone: string, code: string): Promise<"approved" | "wrong" | "expired">;
  /** Sends one text message; resolves with the provider's message id. */
  send(to: string, body: string): Promise<{ id: string }>;
}

/** What GET /api/dev/outbox answers for one text: `to` E.164. */
export const outboxEntry = z.strictObject({ to: z.string(), body: z.string(), createdAt: z.iso.datetime() });
export type OutboxEntry = z.output<typeof outboxEntry>;

/** The console provider also keeps what it "sent", for GET /api/dev/outbox. */
export interface DevOutbox {
  list(): OutboxEntry[];
}
