import { describe, expect, it } from "vitest";
import { pinClock } from "../../test/clock.ts";
import type { EmailAttachment, EmailContent, EmailEvent } from "./templates/email-frame.ts";
import { eventCancelledEmail } from "./templates/event-cancelled.ts";
import { refundEmail } from "./templates/refund.ts";
import { reminderEmail } from "./templates/reminder.ts";
import { resultsEmail } from "./templates/results.ts";
import { bookingEmail } from "./templates/ticket.ts";

// What each email says: the facts in both parts, the attachments, nothing unescaped, no promotion.

const sender = { businessName: "Saathi Speed Dating", supportEmail: "hello@saathi.example" };
const event: EmailEvent = {
  id: 12,
  name: "Harbour Lights Mixer",
  // 2026-12-04 19:00 in Sydney (AEDT, UTC+11).
  startsAt: Date.UTC(2026, 11, 4, 8, 0),
  timeZone: "Australia/Sydney",
  address: "1 George St, Sydney NSW 2000",
  durationHours: 2,
};
const NOW = Date.UTC(2026, 10, 27, 0, 0);
// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(NOW);

const booking = (overrides: Partial<Parameters<typeof bookingEmail>[0]> = {}) =>
  bookingEmail({
    sender,
    origin: "https://tickets.example",
    event,
    name: "Asha Patel",
    userID: 40,
    uniqueCode: "K7M2Q9PX4R",
    ticketUrl: "https://tickets.example/tickets?add=77&t=abc",
    qrText: "https://tickets.example/confirm-booking?eventID=12&userID=40",
    document: { id: 5, number: "INV-000123", title: "Tax invoice" },
    now: NOW,
    ...overrides,
  });

const every = (): EmailContent[] => [
  booking(),
  refundEmail({ sender, event, name: "Asha", amountCents: 1815, reason: "guest_cancel" }),
  refundEmail({ sender, event, name: "Asha", amountCents: 0, reason: "guest_cancel" }),
  refundEmail({ sender, event, name: "Asha", amountCents: 4500, reason: "organiser" }),
  refundEmail({ sender, event, name: "Asha", amountCents: 4500, reason: "no_seat" }),
  eventCancelledEmail({ sender, event, name: "Asha", amountCents: 4500 }),
  reminderEmail({
    sender,
    origin: "https://tickets.example",
    event,
    name: "Asha",
    userID: 40,
    uniqueCode: "K7M2Q9PX4R",
    ticketUrl: "https://tickets.example/tickets?add=77&t=abc",
    now: NOW,
  }),
  resultsEmail({
    sender,
    event,
    name: "Asha",
    matches: 2,
    reportUrl: "https://tickets.example/EventFeedback?par1=12&par2=40&t=x",
  }),
  resultsEmail({
    sender,
    event,
    name: "Asha",
    matches: 0,
    reportUrl: "https://tickets.example/EventFeedback?par1=12&par2=40&t=x",
  }),
];

const decoded = (attachment: EmailAttachment | undefined) =>
  attachment && "base64" in attachment ? Buffer.from(attachment.base64, "base64").toString("utf8") : "";

describe("the booking email", () => {
  it("says the ticket in both parts: code, the venue's time with its zone, the address and the link", () => {
    const email = booking();
    expect(email.subject).toBe("Your ticket for Harbour Lights Mixer");
    for (const part of [email.text, email.html]) {
      expect(part).toContain("K7M2Q9PX4R");
      expect(part).toContain("2026-12-04 07:00 PM AEDT");
      expect(part).toContain("1 George St, Sydney NSW 2000");
      expect(part).toContain("INV-000123");
      expect(part).toContain("Saathi Speed Dating");
      expect(part).toContain("hello@saathi.example");
    }
    expect(email.text).toContain("Open your ticket: https://tickets.example/tickets?add=77&t=abc");
    expect(email.html).toContain('href="https://tickets.example/tickets?add=77&amp;t=abc"');
  });

  it("shows the QR inline by cid, and attaches the .ics and the invoice", () => {
    const email = booking();
    expect(email.html).toContain('src="cid:ticket-qr"');
    const [qr, ics, invoice] = email.attachments;
    // The QR of the door link, drawn when the email is sent.
    expect(qr).toEqual({
      filename: "ticket-qr.png",
      contentType: "image/png",
      cid: "ticket-qr",
      qr: "https://tickets.example/confirm-booking?eventID=12&userID=40",
    });
    expect(ics).toMatchObject({ filename: "Harbour-Lights-Mixer.ics" });
    const calendar = decoded(ics);
    expect(calendar).toContain("DTSTART:20261204T080000Z");
    expect(calendar).toContain("DTEND:20261204T100000Z");
    // A calendar syncs anywhere: a plain link to My tickets, never the ticket link's token or the code.
    expect(calendar).toContain("URL:https://tickets.example/me");
    expect(calendar).not.toContain("t=abc");
    expect(invoice).toEqual({ filename: "INV-000123.pdf", contentType: "application/pdf", document: 5 });
    // Without a document (none was written): the ticket and the calendar only.
    expect(booking({ document: null }).attachments.map((a) => a.filename)).toEqual([
      "ticket-qr.png",
      "Harbour-Lights-Mixer.ics",
    ]);
  });

  it("escapes what people typed, and keeps the subject on one line", () => {
    const email = booking({
      name: `<img src=x onerror=alert(1)> & "Co"`,
      event: { ...event, name: "Mixer\r\nBcc: everyone@example.com" },
    });
    expect(email.subject).toBe("Your ticket for Mixer Bcc: everyone@example.com");
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.html).not.toContain("<img src=x");
    expect(email.html).toContain("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;");
  });
});

describe("every email", () => {
  it("is transactional: no script, no remote image, no offer, and names the business and its contact", () => {
    for (const email of every()) {
      expect(email.html).not.toMatch(/<script|javascript:|<img[^>]+src="https?:/i);
      expect(`${email.subject}\n${email.text}`).not.toMatch(
        /book (again|now)|next event|special offer|discount|STOP|unsubscribe|future events/i,
      );
      expect(email.text).toContain("Saathi Speed Dating · hello@saathi.example");
      expect(email.subject).not.toMatch(/[\r\n]/);
    }
  });

  it("says the refund's amount and when it arrives, or that nothing is due", () => {
    const partial = refundEmail({
      sender,
      event,
      name: "Asha",
      amountCents: 1815,
      reason: "guest_cancel",
      document: { id: 9, number: "INV-000124", title: "Adjustment note" },
    });
    expect(partial.subject).toBe("Your refund for Harbour Lights Mixer");
    expect(partial.text).toContain("$18.15 is being refunded to your card; it can take 5-10 business days to show.");
    expect(partial.text).toContain("The adjustment note INV-000124 is attached.");
    expect(partial.attachments).toEqual([{ filename: "INV-000124.pdf", contentType: "application/pdf", document: 9 }]);
    const nothing = refundEmail({ sender, event, name: "Asha", amountCents: 0, reason: "guest_cancel" });
    expect(nothing.subject).toBe("Your booking for Harbour Lights Mixer is cancelled");
    expect(nothing.text).toContain("no refund is due now");
    expect(nothing.attachments).toEqual([]);
  });
});
