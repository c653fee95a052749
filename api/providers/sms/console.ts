import { randomUUID } from "node:crypto";
import type { Db } from "../../../db/client.ts";
import { checkCode, issueCode } from "../../booking/otp.ts";
import type { Logger } from "../../lib/log.ts";
import type { DevOutbox, OutboxEntry, SmsProvider } from "./types.ts";

/**
 * The SMS provider for development and tests: codes live (hashed) in SQLite, and every message is one
 * log line plus an entry in an in-memory outbox that GET /api/dev/outbox shows. This is the only
 * place a code is ever printed.
 */
export function createConsoleSms(deps: { db: Db; secret: string; log: Logger; now: () => number }): {
  sms: SmsProvider;
  devOutbox: DevOutbox;
} {
  const entries: OutboxEntry[] = [];
  const send = async (to: string, body: string) => {
    const createdAt = new Date(deps.now()).toISOString();
    entries.push({ to, body, createdAt });
    deps.log("info", `sms to ${to}: ${body}`, { provider: "console" });
    return { id: `console_${randomUUID()}` };
  };
  const sms: SmsProvider = {
    name: "console",
    async startVerification(phone) {
      const code = issueCode(deps.db, deps.secret, phone, deps.now());
      await send(phone, `Your Saathi Speed Dating code is ${code}. It expires in 10 minutes.`);
    },
    async checkVerification(phone, code) {
      return checkCode(deps.db, deps.secret, phone, code, deps.now());
    },
    send,
  };
  return { sms, devOutbox: { list: () => entries.map((e) => ({ ...e })) } };
}
