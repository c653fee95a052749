import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../../db/client.ts";
import { phoneVerifications } from "../../../db/schema.ts";
import { yearLike } from "../../../test/clock.ts";
import type { Logger } from "../../lib/log.ts";
import { createConsoleSms } from "./console.ts";

// Dates in a year laid out like 2030, always ahead of the clock (test/clock.ts).
const Y = yearLike(2030);

const PHONE = "+61412345678";
const MINUTE = 60_000;

describe("the console SMS provider", () => {
  const dir = mkdtempSync(join(tmpdir(), "sdt-console-sms-"));
  const db = openDatabase(join(dir, "app.db"));
  let clock = Date.UTC(Y, 0, 1);
  const lines: { level: string; message: string }[] = [];
  const log: Logger = (level, message) => lines.push({ level, message });
  const { sms, devOutbox } = createConsoleSms({ db, secret: "s".repeat(40), log, now: () => clock });
  const codeOf = () =>
    devOutbox
      .list()
      .at(-1)
      ?.body.match(/\b(\d{6})\b/)?.[1] ?? "";

  beforeAll(() => {
    lines.length = 0;
  });
  afterAll(() => {
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("texts a 6-digit code as one log line and one outbox entry, storing only a hash", async () => {
    await sms.startVerification(PHONE);
    const code = codeOf();
    expect(code).toMatch(/^\d{6}$/);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe("info");
    expect(lines[0]?.message).toContain(code);
    expect(devOutbox.list()).toEqual([
      { to: PHONE, body: expect.stringContaining(code), createdAt: new Date(clock).toISOString() },
    ]);
    const rows = db.select().from(phoneVerifications).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.codeHash).not.toContain(code);
    expect(rows[0]?.expiresAt).toBe(clock + 10 * MINUTE);
  });

  it("approves the right code once", async () => {
    await sms.startVerification(PHONE);
    const code = codeOf();
    expect(await sms.checkVerification(PHONE, code)).toBe("approved");
    expect(await sms.checkVerification(PHONE, code)).toBe("expired");
  });

  it("counts wrong tries and voids the code at the fifth", async () => {
    await sms.startVerification(PHONE);
    const code = codeOf();
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect(await sms.checkVerification(PHONE, wrong)).toBe("wrong");
    expect(await sms.checkVerification(PHONE, code)).toBe("expired");
  });

  it("expires a code after 10 minutes", async () => {
    await sms.startVerification(PHONE);
    const code = codeOf();
    clock += 10 * MINUTE;
    expect(await sms.checkVerification(PHONE, code)).toBe("expired");
  });

  it("keeps codes per phone", async () => {
    await sms.startVerification(PHONE);
    const code = codeOf();
    expect(await sms.checkVerification("+61498765432", code)).toBe("expired");
    expect(await sms.checkVerification(PHONE, code)).toBe("approved");
  });

  it("sends plain messages with an id, oldest first in the outbox", async () => {
    const before = devOutbox.list().length;
    const { id } = await sms.send(PHONE, "Your ticket is confirmed");
    expect(id).toMatch(/^console_/);
    expect(devOutbox.list()).toHaveLength(before + 1);
    expect(devOutbox.list().at(-1)?.body).toBe("Your ticket is confirmed");
  });
});
