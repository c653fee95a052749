import { describe, expect, it } from "vitest";
import { pinClock } from "../../test/clock.ts";
import type { EmailEvent } from "./templates/email-frame.ts";
import { reminderEmail, reminderText } from "./templates/reminder.ts";
import { bookingEmail } from "./templates/ticket.ts";

// Venue notes (issue 47, part 3) travel with the ticket email and the reminders, and an event
// without them says nothing of them.

const NOTES = "Enter via Level 1, ask for the Saathi table";
const sender = { businessName: "Saathi Speed Dating", supportEmail: "hello@saathi.example" };
const event: EmailEvent = {
  id: 12,
  name: "Harbour Lights Mixer",
  startsAt: Date.UTC(2026, 11, 4, 8, 0),
  timeZone: "Australia/Sydney",
  address: "1 George St, Sydney NSW 2000",
  durationHours: 2,
};
const NOW = Date.UTC(2026, 10, 27, 0, 0);
// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(NOW);
const ticket = {
  sender,
  origin: "https://tickets.example",
  name: "Asha Patel",
  userID: 40,
  uniqueCode: "K7M2Q9PX4R",
  ticketUrl: "https://tickets.example/tickets?add=77&t=abc",
  now: NOW,
};

const booking = (venueNotes: string | null) =>
  bookingEmail({ ...ticket, event: { ...event, venueNotes }, qrText: "https://tickets.example/confirm-booking" });
const reminder = (venueNotes: string | null) => reminderEmail({ ...ticket, event: { ...event, venueNotes } });
const text = (venueNotes: string | null) =>
  reminderText({ event: { ...event, venueNotes }, now: NOW, ticketsUrl: "https://tickets.example/tickets" });

describe("venue notes in the messages", () => {
  it("are in the ticket email, in both parts, under Venue notes", () => {
    const email = booking(NOTES);
    expect(email.text).toContain(`Venue notes: ${NOTES}`);
    expect(email.html).toContain("Venue notes");
    expect(email.html).toContain(NOTES);
  });

  it("are in the reminder text and the reminder email", () => {
    expect(text(NOTES)).toContain(`Venue notes: ${NOTES}.`);
    expect(text(NOTES)).toMatch(/Your ticket: https:\/\/tickets\.example\/tickets$/);
    const email = reminder(NOTES);
    expect(email.text).toContain(`Venue notes: ${NOTES}`);
    expect(email.html).toContain(NOTES);
  });

  it("are not mentioned when the event has none", () => {
    for (const none of [null, ""]) {
      expect(booking(none).text).not.toContain("Venue notes");
      expect(booking(none).html).not.toContain("Venue notes");
      expect(reminder(none).text).not.toContain("Venue notes");
      expect(text(none)).not.toContain("Venue notes");
      expect(text(none)).toBe(text(null));
    }
  });

  it("are escaped in the HTML part", () => {
    const email = booking('Ask for <b>"Saathi"</b> & co');
    expect(email.html).not.toContain("<b>");
    expect(email.html).toContain("&lt;b&gt;");
  });
});
