import { describe, expect, it } from "vitest";
import { bookedLabel, isSending, progressLabel, recipientsLabel, suggestedText } from "./announcements.ts";

// The Invite tab's words: the draft it suggests, the counts and the progress lines.

// Saturday 5 December 2026, 7 pm in Sydney.
const event = {
  event_name: "Saturday Social",
  EventDateTime: new Date(Date.UTC(2026, 11, 5, 8, 0)).toISOString(),
  time_zone: "Australia/Sydney",
};

describe("the Invite tab's words", () => {
  it("suggests a text naming the short side and the day at a balanced event, with the link's placeholder", () => {
    expect(suggestedText({ ...event, SeatsLeft: { male: 3, female: 6 } })).toBe(
      "3 seats left for men on Saturday at Saturday Social! Book yours: {link}",
    );
    expect(suggestedText({ ...event, SeatsLeft: { male: 4, female: 1 } })).toBe(
      "1 seat left for women on Saturday at Saturday Social! Book yours: {link}",
    );
    expect(suggestedText({ ...event, SeatsLeft: null })).toBe(
      "Seats are open for Saturday Social on Saturday. Book yours: {link}",
    );
  });

  it("says the counts per chosen channel, the progress and the bookings in their exact shapes", () => {
    expect(recipientsLabel({ sms: 120, email: 95 }, ["sms", "email"])).toBe("To 120 by text, 95 by email");
    expect(recipientsLabel({ sms: 120, email: 95 }, ["email"])).toBe("To 95 by email");
    const row = {
      progress: { sent: 120, total: 310, suppressed: 2, failed: 1 },
      booked: { total: 7, female: 2, male: 5 },
    };
    expect(progressLabel(row)).toBe("sent 120 of 310");
    expect(bookedLabel(row)).toBe("booked 7 (women 2, men 5)");
    expect(isSending(row)).toBe(true);
    expect(isSending({ progress: { sent: 307, total: 310, suppressed: 2, failed: 1 } })).toBe(false);
  });
});
