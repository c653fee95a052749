import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { outboxMessages } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer, verifiedPhoneBrowser } from "../../test/api-harness.ts";
import { insertEvent, makeImage } from "../../test/fixtures.ts";
import { detailsForm, newMobile, signedInOnMe } from "../../test/suites/booking-flow.ts";
import { json, PASSWORD } from "../../test/suites/host-access.ts";
import { unsubscribeToken } from "./consent.ts";
import { deliverPending } from "./outbox.ts";

// Email marketing needs the address's own yes (issue 46 item 1, docs/decisions/039): ticking
// **Email me about future events** anywhere records `pending` and sends one email with a signed link;
// only that link records the yes. An address that unsubscribed stays suppressed whoever ticks the box.

const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" } });

const DAY = 86_400_000;
const CONFIRM_SUBJECT = "Confirm you'd like emails about future events";

let image: Buffer;
const imageOnce = async () => {
  image ??= await makeImage();
  return image;
};

const upcoming = () =>
  insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, {
    name: "Saturday Social",
    startsAt: server.deps.now() + 14 * DAY,
  });

/** The details form from a browser that verified `phone`, with the boxes ticked as given. */
async function book(input: { phone: string; email: string; sms?: boolean; emailBox?: boolean }) {
  const event = await upcoming();
  const form = detailsForm({ phone: input.phone, eventId: event.id, image: await imageOnce() });
  form.set("email", input.email);
  if (input.sms) form.append("marketingSms", "1");
  if (input.emailBox) form.append("marketingEmail", "1");
  const response = await verifiedPhoneBrowser(server, input.phone).postForm("/api/save-user-details", form);
  expect(response.status).toBe(200);
  await server.photosStored();
}

const emailsTo = (address: string) =>
  server.deps.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.channel, "email"), eq(outboxMessages.to, address)))
    .all();
const confirmationsTo = (address: string) => emailsTo(address).filter((m) => m.subject === CONFIRM_SUBJECT);

/** The confirmation email's link, as the PWA page opens it: `{c, t}`. */
function confirmationLink(address: string) {
  const [email] = confirmationsTo(address);
  const href = email?.body.match(/https?:\/\/\S+\/confirm-email-consent\?c=\d+&t=[\w-]+/)?.[0];
  if (!href) throw new Error(`no confirmation link to ${address}`);
  const url = new URL(href);
  return { c: url.searchParams.get("c")!, t: url.searchParams.get("t")! };
}

const confirm = (link: { c: string; t: string }, method: "GET" | "POST" = "POST") =>
  fetch(`${server.url}/api/confirm-email-consent?c=${link.c}&t=${link.t}`, { method });

async function organiser(): Promise<BrowserClient> {
  const admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
  return admin;
}

/** Sends an announcement by email to everyone who opted in, and delivers the outbox. */
async function announce(admin: BrowserClient) {
  const event = await upcoming();
  const sent = await admin.postJson("/api/announcements", {
    eventID: event.id,
    audience: {},
    channels: ["sms", "email"],
    text: "Seats left for Saturday: {link}",
  });
  expect(sent.status).toBe(201);
  const reply = await json<{ id: number; recipients: { sms: number; email: number } }>(sent);
  await deliverPending(server.deps);
  const rows = server.deps.db.select().from(outboxMessages).where(eq(outboxMessages.announcementId, reply.id)).all();
  return { ...reply, rows };
}

const announcementsTo = (address: string) => emailsTo(address).filter((m) => m.purpose === "marketing");

describe("email marketing consent", () => {
  it("ticking the box records pending and sends one confirmation email; only its link records the yes", async () => {
    const admin = await organiser();
    const phone = newMobile();
    const email = `new.${Date.now()}@example.com`;
    await book({ phone, email, emailBox: true });

    const confirmations = confirmationsTo(email);
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]).toMatchObject({ purpose: "transactional", subject: CONFIRM_SUBJECT });
    const me = await signedInOnMe(server.url, phone);
    expect(await json(await me.get("/api/me-consent"))).toMatchObject({
      email: false,
      emailState: "pending",
      emailAddress: email,
    });
    const before = await announce(admin);
    expect(before.rows.some((r) => r.to === email)).toBe(false);
    expect(announcementsTo(email)).toEqual([]);

    const link = confirmationLink(email);
    // Opening the page checks the link and changes nothing (a mail scanner may open it).
    const check = await confirm(link, "GET");
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual({ valid: true });
    expect((await json(await me.get("/api/me-consent"))).emailState).toBe("pending");
    // A link signed for another purpose (the unsubscribe link of the same contact) confirms nothing.
    const unsubscribeT = unsubscribeToken(server.deps.env, Number(link.c));
    for (const t of [unsubscribeT, `${link.t.slice(0, -2)}xx`]) {
      const refused = await confirm({ c: link.c, t });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: "invalid_link" });
    }
    const done = await confirm(link);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ confirmed: true });
    expect(await json(await me.get("/api/me-consent"))).toMatchObject({ email: true, emailState: "yes" });

    const after = await announce(admin);
    expect(after.rows.filter((r) => r.to === email)).toHaveLength(1);
    expect(announcementsTo(email).map((m) => m.status)).toEqual(["sent"]);
    // Ticking again once confirmed sends nothing more.
    await book({ phone, email, emailBox: true });
    expect(confirmationsTo(email)).toHaveLength(1);
  });

  it("an address that unsubscribed gets no announcement when another phone books with it and ticks the box", async () => {
    const admin = await organiser();
    const g1 = "g1@example.com";
    const owner = newMobile();
    await book({ phone: owner, email: g1, emailBox: true });
    const link = confirmationLink(g1);
    expect((await confirm(link)).status).toBe(200);
    // g1 taps Unsubscribe in an email.
    const t = unsubscribeToken(server.deps.env, Number(link.c));
    expect((await fetch(`${server.url}/api/unsubscribe?c=${link.c}&t=${t}`, { method: "POST" })).status).toBe(200);

    // Another phone books with g1's address and ticks the box (a seat hold, no payment).
    const attacker = newMobile();
    await book({ phone: attacker, email: g1, emailBox: true });
    const me = await signedInOnMe(server.url, attacker);
    expect(await json(await me.get("/api/me-consent"))).toMatchObject({ email: false, emailState: "pending" });
    // Nor can /me turn it back on.
    const saved = await me.postJson("/api/me-consent", { email: true });
    expect(saved.status).toBe(200);
    expect(await json(saved)).toMatchObject({ email: false, emailState: "pending" });

    const sent = await announce(admin);
    expect(sent.rows.some((r) => r.to === g1)).toBe(false);
    expect(announcementsTo(g1)).toEqual([]);
    // The address is asked at most once a day, however often anyone ticks: it was asked today already.
    expect(confirmationsTo(g1)).toHaveLength(1);
    server.advance(DAY);
    await book({ phone: attacker, email: g1, emailBox: true });
    expect(confirmationsTo(g1)).toHaveLength(2);
    await book({ phone: attacker, email: g1, emailBox: true });
    expect(confirmationsTo(g1)).toHaveLength(2);
    expect(announcementsTo(g1)).toEqual([]);
  });

  it("the owner confirming again from the address is what turns it back on", async () => {
    const phone = newMobile();
    const email = `back.${Date.now()}@example.com`;
    await book({ phone, email, emailBox: true });
    const link = confirmationLink(email);
    expect((await confirm(link)).status).toBe(200);
    const t = unsubscribeToken(server.deps.env, Number(link.c));
    expect((await fetch(`${server.url}/api/unsubscribe?c=${link.c}&t=${t}`, { method: "POST" })).status).toBe(200);
    const me = await signedInOnMe(server.url, phone);
    expect((await json(await me.get("/api/me-consent"))).emailState).toBe("no");
    expect((await confirm(link)).status).toBe(200);
    expect((await json(await me.get("/api/me-consent"))).emailState).toBe("yes");
  });

  it("/me's email box asks the address too, and Download my data says pending", async () => {
    const phone = newMobile();
    const email = `me.${Date.now()}@example.com`;
    await book({ phone, email });
    expect(confirmationsTo(email)).toEqual([]);
    const me = await signedInOnMe(server.url, phone);
    const saved = await me.postJson("/api/me-consent", { email: true });
    expect(await json(saved)).toEqual({ sms: false, email: false, emailState: "pending", emailAddress: email });
    expect(confirmationsTo(email)).toHaveLength(1);
    const data = await json<{ marketingConsents: { channel: string; state: string }[] }>(await me.get("/api/me-data"));
    expect(data.marketingConsents).toEqual([
      expect.objectContaining({ channel: "email", given: true, state: "pending" }),
    ]);
    // Unticking while pending withdraws the request.
    expect(await json(await me.postJson("/api/me-consent", { email: false }))).toMatchObject({ emailState: "no" });
  });
});

describe("text marketing consent", () => {
  it("reaches only the verified number that ticked the box, and not after it sent STOP", async () => {
    const admin = await organiser();
    const phone = newMobile();
    const other = newMobile();
    // The form's number must be the one this browser verified: ticking for another number is refused.
    const event = await upcoming();
    const form = detailsForm({ phone: other, eventId: event.id, image: await imageOnce() });
    form.append("marketingSms", "1");
    expect((await verifiedPhoneBrowser(server, phone).postForm("/api/save-user-details", form)).status).toBe(403);

    await book({ phone, email: `sms.${Date.now()}@example.com`, sms: true });
    const first = await announce(admin);
    expect(first.rows.filter((r) => r.channel === "sms").map((r) => r.to)).toContain(phone);
    expect(first.rows.some((r) => r.to === other)).toBe(false);

    const stop = await fetch(`${server.url}/api/dev/inbound-sms`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ from: phone, body: "STOP" }),
    });
    expect(stop.status).toBe(200);
    const second = await announce(admin);
    expect(second.rows.some((r) => r.to === phone)).toBe(false);
  });
});
