import type { SmsProvider } from "../../api/providers/sms/types.ts";

/**
 * An SMS provider that hands each text to `deliver` instead of a carrier: what the outbox sends, in
 * order. `deliver` may throw to play a carrier that refuses (the outbox then keeps the text queued).
 * Codes are never checked through it.
 */
export function recordingSms(deliver: (text: { to: string; body: string }) => number): SmsProvider {
  return {
    name: "console",
    startVerification: async () => {},
    checkVerification: async () => "wrong",
    send: async (to, body) => ({ id: `SM${deliver({ to, body })}` }),
  };
}
