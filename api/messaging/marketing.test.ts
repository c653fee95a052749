import { describe, expect, it } from "vitest";
import { ANNOUNCEMENT_SMS_MAX, smsLength, smsTooLongMessage } from "../../common/announcement.ts";
import { pinClock } from "../../test/clock.ts";
import {
  announcementEmail,
  announcementSms,
  listUnsubscribeHeaders,
  type MarketingEnv,
} from "./templates/announcement.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 10, 27));

// What an announcement says: the sender named, the event's link filled in, the way out on every
// message, the email's footer and headers, nothing unescaped.

const env: MarketingEnv = {
  BUSINESS_NAME: "Saathi Speed Dating",
  BUSINESS_ABN: "51 824 753 556",
  BUSINESS_ADDRESS: "1 George St, Sydney NSW 2000",
  SUPPORT_EMAIL: "hello@saathi.example",
  PUBLIC_BASE_URL: "https://tickets.example",
  SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
};
const link = "https://tickets.example/?event=12&a=3";
const event = { name: "Harbour Lights Mixer", startsAt: Date.UTC(2026, 11, 4, 8, 0), timeZone: "Australia/Sydney" };

describe("the announcement's text message", () => {
  it("names the sender first, fills in the link and ends with Reply STOP to opt out", () => {
    expect(announcementSms(env, "3 seats left for men on Saturday: {link}", link)).toBe(
      `Saathi Speed Dating: 3 seats left for men on Saturday: ${link}\nReply STOP to opt out`,
    );
  });

  it("adds the link at the end when the text has no {link}, and no second name when the text names the business", () => {
    expect(announcementSms(env, "  saathi speed dating is back on Friday!  ", link)).toBe(
      `saathi speed dating is back on Friday!\n${link}\nReply STOP to opt out`,
    );
  });

  it("is the sender, the link and the way out when nothing is written yet (the tab's first preview)", () => {
    expect(announcementSms(env, "   ", link)).toBe(`Saathi Speed Dating: ${link}\nReply STOP to opt out`);
  });

  it("counts the added parts against the 480-character limit", () => {
    const sms = announcementSms(env, "x".repeat(440), link);
    expect(smsLength(sms)).toBeGreaterThan(ANNOUNCEMENT_SMS_MAX);
    expect(smsTooLongMessage(smsLength(sms))).toBe(
      `The text message would be ${smsLength(sms)} characters; keep it to 480.`,
    );
    // An emoji is one character, as a person counts.
    expect(smsLength("🎉🎉")).toBe(2);
  });
});

describe("the announcement's email", () => {
  const headers = listUnsubscribeHeaders(env, 42);
  const email = announcementEmail(env, {
    event,
    text: 'New night: <b>"Harbour"</b> & friends.\n\nBook here: {link}',
    link,
    unsubscribeUrl: "https://tickets.example/unsubscribe?c=42&t=abc",
    headers,
  });

  it("has the event's name and date as its subject", () => {
    expect(email.subject).toMatch(/^Harbour Lights Mixer, .*7:00 PM AEDT$/);
  });

  it("names the business, its ABN, address and contact, and links Unsubscribe, in both parts", () => {
    for (const part of [email.text, email.html]) {
      expect(part).toContain("Saathi Speed Dating");
      expect(part).toContain("ABN 51 824 753 556");
      expect(part).toContain("1 George St, Sydney NSW 2000");
      expect(part).toContain("hello@saathi.example");
    }
    expect(email.html).toMatch(
      /<a href="https:\/\/tickets\.example\/unsubscribe\?c=42&amp;t=abc"[^>]*>Unsubscribe<\/a>/,
    );
    expect(email.text).toContain("Unsubscribe: https://tickets.example/unsubscribe?c=42&t=abc");
    // The event's link, filled in where the text said {link} and as the button.
    expect(email.text).toContain(`Book here: ${link}`);
    expect(email.html).toContain(`href="${link.replace("&", "&amp;")}"`);
  });

  it("escapes the organiser's text in the HTML", () => {
    expect(email.html).toContain("New night: &lt;b&gt;&quot;Harbour&quot;&lt;/b&gt; &amp; friends.");
    expect(email.html).not.toContain("<b>");
    expect(email.text).toContain('New night: <b>"Harbour"</b> & friends.');
  });

  it("carries List-Unsubscribe (a signed one-click link, no address) and List-Unsubscribe-Post", () => {
    expect(email.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(email.headers["List-Unsubscribe"]).toMatch(
      /^<https:\/\/tickets\.example\/api\/unsubscribe\?c=42&t=[\w-]+>$/,
    );
  });
});
