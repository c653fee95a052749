import type { Db } from "../../../db/client.ts";
import type { Env } from "../../env.ts";
import type { Logger } from "../../lib/log.ts";
import { createConsoleSms } from "./console.ts";
import { createTwilioSms } from "./twilio.ts";
import type { DevOutbox, SmsProvider } from "./types.ts";

export type SmsSetup = { sms: SmsProvider; devOutbox?: DevOutbox };

/** Twilio when its keys are configured, otherwise the console provider with the dev outbox. */
export function createSmsProvider(env: Env, db: Db, log: Logger, now: () => number): SmsSetup {
  if (env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN) {
    // env.ts refuses to start with the SID but without the Verify service or the sender.
    return {
      sms: createTwilioSms({
        accountSid: env.TWILIO_ACCOUNT_SID,
        authToken: env.TWILIO_AUTH_TOKEN,
        verifyServiceSid: env.TWILIO_VERIFY_SERVICE_SID ?? "",
        from: env.TWILIO_FROM ?? "",
        apiBase: env.TWILIO_API_BASE,
      }),
    };
  }
  const { sms, devOutbox } = createConsoleSms({ db, secret: env.SESSION_SECRET, log, now });
  return { sms, devOutbox };
}
