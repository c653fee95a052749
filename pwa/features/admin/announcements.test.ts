import { describe, expect, it } from "vitest";
import { pinClock } from "../../../test/clock.ts";
import { bookedLabel, isSending, progressLabel, recipientsLabel, suggestedText } from "./announcements.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

// The Invite tab's words: the draft it suggests, the counts and the progress lines.

// Saturday 5 December 2026, 7 pm in Sydney.
const event = {
  name: "Saturday Social",
  startsAt: new Date(Date.UTC(2026, 11, 5, 8, 0)).toISOString(),
  timeZone: "Australia/Sydney",
};

describe("the Invite tab's words", () => {
  it("suggests a text naming the short side and the day at a balanced event, with the link's placeholder", () => {
    expect(suggestedText({ ...event, SeatsLeft: { male: 3, female: 6 } })).toBe(
      "3 seats left for men on Saturday 5 December at Saturday Social! Book yours: {link}",
    );
    expect(suggestedText({ ...event, SeatsLeft: { male: 4, female: 1 } })).toBe(
      "1 seat left for women on Saturday 5 December at Saturday Social! Book yours: {link}",
    );
    expect(suggestedText({ ...event, SeatsLeft: null })).toBe(
      "Seats are open for Saturday Social on Saturday 5 December. Book yours: {link}",
    );
  });

  it("gives the night's date on the venue's clock, so a night two weeks away is not read as this week's", () => {
    // Tuesday 15 December 2026, 7:30 pm in Sydney, which is still Tuesday morning in UTC.
    const tuesday = {
      ...event,
      name: "Summer Mixer",
      startsAt: "2026-12-15T08:30:00.000Z",
      SeatsLeft: null,
    };
    expect(suggestedText(tuesday)).toBe("Seats are open for Summer Mixer on Tuesday 15 December. Book yours: {link}");
    // 9:30 am on Wednesday 16 December in Sydney is still Tuesday 15 December in UTC: the venue's date wins.
    expect(suggestedText({ ...tuesday, startsAt: "2026-12-15T22:30:00.000Z" })).toBe(
      "Seats are open for Summer Mixer on Wednesday 16 December. Book yours: {link}",
    );
    // Perth is three hours behind Sydney in December: 11 pm Monday there.
    expect(suggestedText({ ...tuesday, startsAt: "2026-12-14T15:00:00.000Z", timeZone: "Australia/Perth" })).toBe(
      "Seats are open for Summer Mixer on Monday 14 December. Book yours: {link}",
    );
  });

  it("says queued until the first message goes, then how many of all were sent", () => {
    const queued = { progress: { sent: 0, total: 7, suppressed: 0, failed: 0 } };
    expect(progressLabel(queued)).toBe("queued");
    expect(progressLabel({ progress: { sent: 1, total: 7, suppressed: 0, failed: 0 } })).toBe("sent 1 of 7");
    // Every message done and none delivered (all opted out since): the count says so.
    expect(progressLabel({ progress: { sent: 0, total: 7, suppressed: 7, failed: 0 } })).toBe("sent 0 of 7");
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
