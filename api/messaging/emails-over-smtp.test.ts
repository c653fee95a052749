import { eq } from "drizzle-orm";
import jsQR from "jsqr";
import { type Attachment, simpleParser } from "mailparser";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { bookings, events, users } from "../../db/schema.ts";
import { browserClient, suiteFake, suiteTestServer } from "../../test/api-harness.ts";
import { startFakeSmtp } from "../../test/fakes/smtp.ts";
import { insertEvent } from "../../test/fixtures.ts";
import { pay, signedInOnMe } from "../../test/suites/booking-flow.ts";
import { GST_SELLER, paidOverHttp, pdfText } from "../../test/suites/invoices.ts";
import { linkToken } from "../lib/capability.ts";
import { deliverPending } from "./outbox.ts";
import { queueDueReminders } from "./reminders.ts";

// The emails of issue 35 (docs/decisions/033-emails.md), end to end: a real payment over HTTP, the
// outbox, nodemailer's real SMTP transport, an in-process SMTP server, and each message read back
// with mailparser: its subject, the QR inline (scanned), the .ics, and the PDF's text.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SELLER = { ...GST_SELLER, SUPPORT_EMAIL: "hello@harbournights.example" };

const smtp = suiteFake(startFakeSmtp);
const server = suiteTestServer(() => ({
  env: {
    ...SELLER,
    SMTP_URL: smtp.url,
    MAIL_FROM: "Harbour Nights <tickets@harbournights.example>",
    OTP_MAX_PER_ADDRESS: "100000",
    OTP_MAX_PER_PHONE: "1000",
  },
}));

const inbox = (address: string) => smtp.received.filter((m) => m.envelope.to.includes(address));
const named = (attachments: Attachment[], name: RegExp) => attachments.find((a) => name.test(a.filename ?? ""));

/** A booking paid over HTTP with an early bird and a promo code, its buyer given `email`. */
async function paidBooking(eventName: string, email: string, name = "Asha Patel") {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, { name: eventName, startsAt: server.deps.now() + 5 * DAY });
  const held = await paidOverHttp(server, event.id, { list: 5500, earlyBird: 550, promo: 495 });
  db.update(users).set({ email, name }).where(eq(users.id, held.userId)).run();
  expect(await pay(server.url, held.sessionId)).toBe(303);
  await deliverPending(server.deps);
  const booking = db.select().from(bookings).where(eq(bookings.id, held.bookingId)).get()!;
  return { ...held, event, booking };
}

async function scan(png: Buffer): Promise<string | null> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data ?? null;
}

describe("the booking email", () => {
  it("arrives with the ticket: subject, the QR inline (it scans as the door link), the .ics and the tax invoice", async () => {
    const paid = await paidBooking("Harbour Lights Mixer", "asha@example.com");
    await expect.poll(() => inbox("asha@example.com").length).toBe(1);
    const [mail] = inbox("asha@example.com");
    const parsed = mail!.parsed;
    expect(parsed.subject).toBe("Your ticket for Harbour Lights Mixer");
    expect(parsed.from?.text).toBe('"Harbour Nights" <tickets@harbournights.example>');
    expect(mail!.envelope.to).toEqual(["asha@example.com"]);

    // Both parts carry the facts.
    const code = paid.booking.uniqueCode!;
    for (const part of [parsed.text ?? "", String(parsed.html)]) {
      expect(part).toContain(code);
      expect(part).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} (AM|PM) AE[DS]T/);
      expect(part).toContain("Harbour Nights Pty Ltd");
      expect(part).toContain("hello@harbournights.example");
    }
    const ticketLink = `${server.url}/tickets?add=${paid.bookingId}&t=${linkToken(server.deps.env, "ticket", paid.bookingId)}`;
    expect(parsed.text).toContain(ticketLink);

    // The QR is inline (by cid) and scans as the door page of this booking, as the ticket's does.
    // (mailparser inlines cid: images as data URLs unless asked to keep the links.)
    expect(String((await simpleParser(mail!.raw, { keepCidLinks: true })).html)).toContain('src="cid:ticket-qr"');
    const qr = parsed.attachments.find((a) => a.cid === "ticket-qr");
    expect(qr?.contentType).toBe("image/png");
    expect(await scan(qr!.content)).toBe(
      `${server.url}/confirm-booking?eventID=${paid.event.id}&userID=${paid.userId}`,
    );

    // The night as a calendar entry.
    const ics = named(parsed.attachments, /\.ics$/);
    expect(ics?.filename).toBe("Harbour-Lights-Mixer.ics");
    const calendar = ics!.content.toString("utf8");
    expect(calendar).toContain("SUMMARY:Harbour Lights Mixer");
    expect(calendar).toContain(`DTSTART:${new Date(paid.event.startsAt).toISOString().replace(/[-:]|\.\d{3}/g, "")}`);

    // The tax invoice, its text read back from the PDF: number, ABN, GST, and each discount line.
    const pdf = named(parsed.attachments, /^INV-\d{6}\.pdf$/);
    expect(pdf?.contentType).toBe("application/pdf");
    const text = await pdfText(new Uint8Array(pdf!.content));
    expect(text).toContain("Tax invoice");
    expect(text).toContain(pdf!.filename!.replace(".pdf", ""));
    expect(text).toContain("53 004 085 616");
    expect(text).toContain("Total price includes GST");
    expect(text).toMatch(/Early.bird/i);
    expect(text).toContain("SAVE10");
    expect(text).toContain("$44.55");
    // GST: 1/11 of $44.55.
    expect(text).toContain("$4.05");
  });

  it("holds nobody else's data: another buyer's email carries only their own ticket and invoice", async () => {
    const first = await paidBooking("Laneway Supper Club", "meera@example.com", "Meera Iyer");
    const second = await paidBooking("Laneway Supper Club", "ravi@example.com", "Ravi Kumar");
    await expect.poll(() => inbox("ravi@example.com").length).toBe(1);
    const mail = inbox("ravi@example.com")[0]!;
    const everything = [
      mail.raw,
      ...(await Promise.all(
        mail.parsed.attachments
          .filter((a) => a.contentType === "application/pdf")
          .map((a) => pdfText(new Uint8Array(a.content))),
      )),
    ].join("\n");
    expect(everything).toContain(second.booking.uniqueCode!);
    expect(everything).not.toContain(first.booking.uniqueCode!);
    expect(everything).not.toContain("Meera");
    expect(everything).not.toContain("meera@example.com");
    // And no phone number, date of birth or photo of anyone in the invoice.
    const pdf = named(mail.parsed.attachments, /\.pdf$/)!;
    const invoice = await pdfText(new Uint8Array(pdf.content));
    expect(invoice).not.toContain(second.phone.slice(-6));
    expect(invoice).not.toContain("Ravi");
  });

  it("cannot be made to add a header or a recipient by a name with line breaks", async () => {
    const { db } = server.deps;
    const paid = await paidBooking("Injection Night", "neha@example.com", "Neha\r\nBcc: thief@evil.example");
    // The organiser's event name too (admin input), renamed before the next email: the refund's.
    db.update(events).set({ name: "Injection\r\nBcc: thief@evil.example" }).where(eq(events.id, paid.event.id)).run();
    const admin = await signedInOnMe(server.url, paid.phone);
    expect((await admin.postJson("/api/cancel-booking", { eventID: paid.event.id, userID: paid.userId })).status).toBe(
      200,
    );
    await deliverPending(server.deps);
    await expect.poll(() => inbox("neha@example.com").length).toBe(2);
    for (const mail of [...inbox("neha@example.com"), ...smtp.received]) {
      expect(mail.envelope.to).not.toContain("thief@evil.example");
      expect(mail.parsed.bcc).toBeUndefined();
      expect(mail.parsed.headers.has("bcc")).toBe(false);
    }
    const refund = inbox("neha@example.com")[1]!.parsed;
    expect(refund.subject).toBe("Your refund for Injection Bcc: thief@evil.example");
  });
});

describe("a refund's email", () => {
  it("says the amount and attaches the adjustment note against the invoice's number", async () => {
    const { db } = server.deps;
    const paid = await paidBooking("Riverside Lantern Walk", "riya@example.com", "Riya Shah");
    // Inside the cut-off: 50% of $44.55 comes back.
    db.update(events)
      .set({ startsAt: server.deps.now() + 10 * HOUR, cancelFullRefundHours: 24, cancelLaterPercent: 50 })
      .where(eq(events.id, paid.event.id))
      .run();
    const guest = await signedInOnMe(server.url, paid.phone);
    const cancelled = await guest.postJson("/api/cancel-booking", { eventID: paid.event.id, userID: paid.userId });
    expect(await cancelled.json()).toEqual({ refundCents: 2227, creditCents: 0, status: "refunded" });
    await deliverPending(server.deps);
    await expect.poll(() => inbox("riya@example.com").length).toBe(2);
    const invoiceNumber = named(inbox("riya@example.com")[0]!.parsed.attachments, /^INV-/)!.filename!.replace(
      ".pdf",
      "",
    );
    const refund = inbox("riya@example.com")[1]!.parsed;
    expect(refund.subject).toBe("Your refund for Riverside Lantern Walk");
    expect(refund.text).toContain("$22.27 is being refunded to your card");
    const note = named(refund.attachments, /^INV-\d{6}\.pdf$/)!;
    expect(note.filename).not.toBe(`${invoiceNumber}.pdf`);
    const text = await pdfText(new Uint8Array(note.content));
    expect(text).toContain("Adjustment note");
    expect(text).toContain(invoiceNumber);
    expect(text).toContain("$22.27");
  });
});

describe("an address that refuses mail", () => {
  it("never blocks the booking: the seat is paid, the ticket texted, and the booking says the email bounced", async () => {
    smtp.refuse("bounce@example.com", 550);
    try {
      const paid = await paidBooking("Bounce Night", "bounce@example.com");
      expect(paid.booking.status).toBe("paid");
      expect(paid.booking.uniqueCode).toMatch(/^[A-Z2-9]{10}$/);
      await expect
        .poll(() => server.deps.db.select().from(bookings).where(eq(bookings.id, paid.bookingId)).get()?.emailFailedAt)
        .toBeTypeOf("number");
      expect(inbox("bounce@example.com")).toEqual([]);
      // The organiser's participants list says so, beside the address.
      const admin = browserClient(server.url);
      expect((await admin.postJson("/api/admin-login", { password: "correct horse battery staple" })).status).toBe(200);
      const list = (await (await admin.get(`/api/get-event-user/${paid.event.id}`)).json()) as {
        email: string;
        emailBounced: boolean;
      }[];
      expect(list).toEqual([expect.objectContaining({ email: "bounce@example.com", emailBounced: true })]);
    } finally {
      smtp.clearRefusals();
    }
  });
});

describe("the other emails", () => {
  it("reminds before the night with the .ics again, and each reminder goes once", async () => {
    const { db, env } = server.deps;
    const paid = await paidBooking("Lantern Reminder Night", "kiran@example.com", "Kiran Rao");
    const advanced = paid.event.startsAt - 24 * HOUR - server.deps.now();
    server.advance(advanced);
    try {
      expect(queueDueReminders(db, env, server.deps.now())).toBeGreaterThan(0);
      queueDueReminders(db, env, server.deps.now());
      await deliverPending(server.deps);
      await expect.poll(() => inbox("kiran@example.com").length).toBe(2);
      const reminder = inbox("kiran@example.com")[1]!.parsed;
      expect(reminder.subject).toMatch(
        /^Reminder: Lantern Reminder Night, \d{4}-\d{2}-\d{2} \d{2}:\d{2} (AM|PM) AE[DS]T$/,
      );
      expect(reminder.text).toContain(paid.booking.uniqueCode!);
      expect(named(reminder.attachments, /\.ics$/)?.filename).toBe("Lantern-Reminder-Night.ics");
    } finally {
      server.advance(-advanced);
    }
  });

  it("says a cancelled night is cancelled, then sends the refund with its adjustment note", async () => {
    const paid = await paidBooking("Called Off Mixer", "dev@example.com", "Dev Sharma");
    const admin = browserClient(server.url);
    expect((await admin.postJson("/api/admin-login", { password: "correct horse battery staple" })).status).toBe(200);
    expect((await admin.postJson("/api/cancel-event", { eventId: paid.event.id })).status).toBe(200);
    await deliverPending(server.deps);
    await expect.poll(() => inbox("dev@example.com").length).toBe(3);
    const [, cancelled, refund] = inbox("dev@example.com").map((m) => m.parsed);
    expect(cancelled?.subject).toBe("Called Off Mixer is cancelled");
    expect(cancelled?.text).toContain("$44.55 is being refunded to your card");
    expect(refund?.subject).toBe("Your refund for Called Off Mixer");
    const note = await pdfText(new Uint8Array(named(refund!.attachments, /\.pdf$/)!.content));
    expect(note).toContain("Adjustment note");
  });
});
