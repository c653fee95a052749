import type { Db } from "../../../db/client.ts";
import type { Env } from "../../env.ts";
import type { Logger } from "../../lib/log.ts";
import type { DevOutbox, SmsProvider } from "./types.ts";

export type SmsSetup = { sms: SmsProvider; devOutbox?: DevOutbox };

/** Twilio when its keys are configured, otherwise the console provider with the dev outbox. */
export function createSmsProvider(_env: Env, _db: Db, _log: Logger, _now: () => number): SmsSetup {
  const unavailable = async () => {
    throw new Error("SMS provider not implemented yet");
  };
  return {
    sms: { name: "console", startVerification: unavailable, checkVerification: unavailable, send: unavailable },
  };
}
