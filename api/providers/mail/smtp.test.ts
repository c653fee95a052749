import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { suiteFake } from "../../../test/api-harness.ts";
import { startFakeSmtp } from "../../../test/fakes/smtp.ts";
import { parseEnv } from "../../env.ts";
import { silentLogger } from "../../lib/log.ts";
import { createMailProvider } from "./index.ts";
import { createSmtpMail } from "./smtp.ts";
import { MailSendError } from "./types.ts";

const FROM = { name: "Speed Dating", address: "tickets@example.com" };
// A 1×1 PNG: the inline "QR" of these tests.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A loopback port nothing listens on: a mail host that is down. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

// nodemailer's real SMTP transport, talking to a real SMTP server (smtp-server) on loopback; every
// message is read back with mailparser.
describe("the SMTP mail provider", () => {
  const smtp = suiteFake(() => startFakeSmtp({ user: "mailer", pass: "p@ss word" }));
  const mail = () => createSmtpMail({ url: smtp.url, from: FROM });

  it("delivers the subject, text, HTML, an inline image and an attachment intact, logged in with the URL's user", async () => {
    smtp.received.length = 0;
    const ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n";
    const { id } = await mail().send({
      to: { name: "Ana María", address: "ana@example.com" },
      subject: "Your ticket for Friday Mixer — ½ price",
      text: "Your code is ABC123.\nSee you there.",
      html: '<table><tr><td style="color:#333">Your code is <b>ABC123</b></td></tr></table><img src="cid:qr@ticket">',
      attachments: [
        { filename: "ticket.png", contentType: "image/png", content: PNG, cid: "qr@ticket" },
        { filename: "event.ics", contentType: "text/calendar", content: Buffer.from(ics) },
      ],
      headers: { "X-Booking": "42" },
    });
    expect(id).toMatch(/^<.+>$/);
    expect(smtp.received).toHaveLength(1);
    const [{ envelope, parsed }] = smtp.received as [(typeof smtp.received)[number]];
    expect(envelope).toEqual({ from: "tickets@example.com", to: ["ana@example.com"] });
    expect(parsed.subject).toBe("Your ticket for Friday Mixer — ½ price");
    expect(parsed.from?.value).toEqual([{ name: "Speed Dating", address: "tickets@example.com" }]);
    expect(parsed.text?.trim()).toBe("Your code is ABC123.\nSee you there.");
    expect(parsed.html).toContain("<b>ABC123</b>");
    expect(parsed.headers.get("x-booking")).toBe("42");
    const inline = parsed.attachments.find((a) => a.filename === "ticket.png");
    expect(inline?.contentId).toBe("<qr@ticket>");
    expect(inline?.contentDisposition).toBe("inline");
    expect(inline?.content.equals(PNG)).toBe(true);
    const attached = parsed.attachments.find((a) => a.filename === "event.ics");
    expect(attached?.contentType).toBe("text/calendar");
    expect(attached?.content.toString()).toBe(ics);
  });

  it("never lets a subject, a name or a header value add a header or a recipient", async () => {
    smtp.received.length = 0;
    await mail().send({
      to: { name: "Eve\r\nBcc: name-bcc@evil.example", address: "eve@example.com" },
      from: { name: "Organiser\nCc: from-cc@evil.example", address: "tickets@example.com" },
      subject: "Hello\r\nBcc: subject-bcc@evil.example\r\nX-Injected: yes\r\n\r\nfake body",
      text: "The real body.",
      headers: { "X-Note": "one\r\nBcc: header-bcc@evil.example" },
      attachments: [
        { filename: "a\r\nBcc: file-bcc@evil.example.txt", contentType: "text/plain", content: Buffer.from("x") },
      ],
    });
    expect(smtp.received).toHaveLength(1);
    const [{ envelope, parsed, raw }] = smtp.received as [(typeof smtp.received)[number]];
    // The envelope, which is what servers deliver by, holds the one recipient.
    expect(envelope.to).toEqual(["eve@example.com"]);
    // No header was added: no Bcc, no Cc, no X-Injected, one To with one mailbox.
    expect(parsed.headers.has("bcc")).toBe(false);
    expect(parsed.headers.has("cc")).toBe(false);
    expect(parsed.headers.has("x-injected")).toBe(false);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value.map((v) => v.address) : []).toEqual([
      "eve@example.com",
    ]);
    expect(raw).not.toMatch(/^(bcc|cc|x-injected):/im);
    expect(raw).not.toContain("\r\n\r\nfake body");
    // What was on the line is still there, as text of the one header it belongs to.
    expect(parsed.subject).toBe("Hello Bcc: subject-bcc@evil.example X-Injected: yes fake body");
    expect(parsed.text?.trim()).toBe("The real body.");
  });

  it("refuses an address that is a list or carries a second recipient, before any connection", async () => {
    smtp.received.length = 0;
    for (const to of [
      "ana@example.com, evil@example.com",
      "ana@example.com\r\nBcc: evil@example.com",
      "Ana <ana@example.com>",
      "ana@example.com;evil@example.com",
      "",
    ]) {
      const sent = mail().send({ to, subject: "Hi", text: "Hi" });
      await expect(sent, JSON.stringify(to)).rejects.toMatchObject({ name: "MailSendError", permanent: true });
    }
    expect(smtp.received).toEqual([]);
  });

  it("reports a 550 refusal as permanent and a 451 as temporary", async () => {
    smtp.refuse("gone@example.com", 550);
    smtp.refuse("busy@example.com", 451);
    try {
      const gone = await mail()
        .send({ to: "gone@example.com", subject: "Hi", text: "Hi" })
        .catch((e: unknown) => e);
      expect(gone).toBeInstanceOf(MailSendError);
      expect(gone).toMatchObject({ permanent: true, responseCode: 550 });
      const busy = await mail()
        .send({ to: "busy@example.com", subject: "Hi", text: "Hi" })
        .catch((e: unknown) => e);
      expect(busy).toMatchObject({ permanent: false, responseCode: 451 });
    } finally {
      smtp.clearRefusals();
    }
  });

  it("reports a refused connection and a refused login as temporary (the host or the settings, not the address)", async () => {
    const down = createSmtpMail({ url: `smtp://127.0.0.1:${await closedPort()}`, from: FROM });
    await expect(down.send({ to: "ana@example.com", subject: "Hi", text: "Hi" })).rejects.toMatchObject({
      permanent: false,
    });
    const wrongPassword = createSmtpMail({ url: smtp.url.replace("p%40ss%20word", "wrong"), from: FROM });
    await expect(wrongPassword.send({ to: "ana@example.com", subject: "Hi", text: "Hi" })).rejects.toMatchObject({
      permanent: false,
    });
  });

  it("is chosen when SMTP_URL is set, with MAIL_FROM as the sender", async () => {
    const env = parseEnv({
      DATABASE_PATH: ":memory:",
      SESSION_SECRET: "s".repeat(40),
      SMTP_URL: smtp.url,
      MAIL_FROM: "Friday Nights <hello@example.com>",
    });
    const { mail: chosen, devMailbox } = createMailProvider(env, silentLogger, Date.now);
    expect(chosen.name).toBe("smtp");
    expect(devMailbox).toBeUndefined();
    smtp.received.length = 0;
    await chosen.send({ to: "ana@example.com", subject: "Hi", text: "Hi" });
    expect(smtp.received[0]?.parsed.from?.value).toEqual([{ name: "Friday Nights", address: "hello@example.com" }]);
  });
});
