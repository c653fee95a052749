import { describe, expect, it } from "vitest";
import { yearLike } from "../../../test/clock.ts";
import { parseEnv } from "../../env.ts";
import type { Logger } from "../../lib/log.ts";
import { createMailProvider } from "./index.ts";
import { createLocalMail, recipientTag } from "./local.ts";

// Dates in a year laid out like 2030, always ahead of the clock (test/clock.ts).
const Y = yearLike(2030);

describe("the local mail provider", () => {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const log: Logger = (level, message, fields) => lines.push({ level, message, fields });
  const clock = Date.UTC(Y, 0, 1);
  const { mail, devMailbox } = createLocalMail({
    from: { name: "Speed Dating", address: "tickets@localhost" },
    log,
    now: () => clock,
  });

  it("is chosen without SMTP_URL, sending as the development sender", () => {
    const env = parseEnv({ DATABASE_PATH: ":memory:", SESSION_SECRET: "s".repeat(40) });
    expect(env.MAIL_FROM).toEqual({ name: "Speed Dating", address: "tickets@localhost" });
    const chosen = createMailProvider(env, log, () => clock);
    expect(chosen.mail.name).toBe("local");
    expect(chosen.devMailbox).toBeDefined();
  });

  it("logs one line per email with the subject and a recipient tag, never the body or the address", async () => {
    lines.length = 0;
    const { id } = await mail.send({
      to: "ana@example.com",
      subject: "Your ticket for Friday Mixer",
      text: "Your code is ABC123 https://tickets.example/t?token=secret",
      html: "<p>Your code is ABC123</p>",
      attachments: [{ filename: "event.ics", contentType: "text/calendar", content: Buffer.from("BEGIN:VCALENDAR") }],
    });
    expect(id).toMatch(/^local_/);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.message).toBe(`email to ${recipientTag("ana@example.com")}: Your ticket for Friday Mixer`);
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain("ABC123");
    expect(logged).not.toContain("ana@example.com");
    expect(devMailbox.list().at(-1)).toEqual({
      to: "ana@example.com",
      subject: "Your ticket for Friday Mixer",
      text: "Your code is ABC123 https://tickets.example/t?token=secret",
      html: "<p>Your code is ABC123</p>",
      attachments: ["event.ics"],
      createdAt: new Date(clock).toISOString(),
    });
    expect(devMailbox.messages().at(-1)?.attachments?.[0]?.content.toString()).toBe("BEGIN:VCALENDAR");
  });

  it("keeps the subject on one line, as the SMTP provider does", async () => {
    await mail.send({ to: "ana@example.com", subject: "Hi\r\nBcc: evil@example.com", text: "x" });
    expect(devMailbox.list().at(-1)?.subject).toBe("Hi Bcc: evil@example.com");
  });

  it("refuses an address at the reserved .invalid domain permanently, as a dead mailbox", async () => {
    const before = devMailbox.list().length;
    await expect(mail.send({ to: "nobody@example.invalid", subject: "Hi", text: "x" })).rejects.toMatchObject({
      permanent: true,
      responseCode: 550,
    });
    expect(devMailbox.list()).toHaveLength(before);
  });
});
