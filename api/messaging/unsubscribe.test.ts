import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { marketingConsents } from "../../db/marketing-schema.ts";
import { suiteTestServer } from "../../test/api-harness.ts";
import { insertAttendee } from "../../test/fixtures.ts";
import { linkToken } from "../lib/capability.ts";
import { hasConsent, listUnsubscribeHeaders, recordConsent, unsubscribeLink, unsubscribeToken } from "./consent.ts";

// One-click unsubscribe (issue 36): the email's link opens /unsubscribe (the PWA's page, no login);
// its button and a mail client's List-Unsubscribe POST (RFC 8058) both reach POST /api/unsubscribe,
// which withdraws that address's yes and never says whose address it is.

const server = suiteTestServer(() => {
  const dist = mkdtempSync(join(tmpdir(), "sdt-dist-unsubscribe-"));
  writeFileSync(join(dist, "index.html"), "<!doctype html><title>shell</title>");
  return { deps: () => ({ staticDir: dist }) };
});

let seq = 0;
/** An email address that said yes (confirmed from the address, docs/decisions/039), and its contact id. */
function consentingEmail() {
  const address = `guest${++seq}.${Date.now()}@example.com`;
  const contactId = recordConsent(server.deps.db, {
    channel: "email",
    address,
    given: true,
    source: "confirmation",
    phone: null,
    at: server.deps.now(),
  });
  return { address, contactId, token: unsubscribeToken(server.deps.env, contactId) };
}

const post = (query: string, init: RequestInit = {}) =>
  fetch(`${server.url}/api/unsubscribe?${query}`, { method: "POST", ...init });

const historyOf = (contactId: number) =>
  server.deps.db
    .select()
    .from(marketingConsents)
    .all()
    .filter((r) => r.contactId === contactId)
    .map((r) => ({ given: r.given, source: r.source }));

describe("one-click unsubscribe", () => {
  it("serves the page at /unsubscribe to anyone, without a login, from the app shell", async () => {
    const { contactId, token } = consentingEmail();
    const link = new URL(unsubscribeLink(server.deps.env, contactId));
    expect(link.pathname).toBe("/unsubscribe");
    const response = await fetch(`${server.url}${link.pathname}${link.search}`, { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain("<title>shell</title>");
    const check = await fetch(`${server.url}/api/unsubscribe?c=${contactId}&t=${token}`);
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual({ valid: true });
  });

  it("unsubscribes with a valid link, and a second tap answers the same and records nothing more", async () => {
    const { address, contactId, token } = consentingEmail();
    const first = await post(`c=${contactId}&t=${token}`);
    expect(first.status).toBe(200);
    const body = await first.text();
    expect(JSON.parse(body)).toEqual({ unsubscribed: true, textsStillOn: false });
    expect(body).not.toContain(address);
    expect(hasConsent(server.deps.db, "email", address)).toBe(false);
    const again = await post(`c=${contactId}&t=${token}`);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ unsubscribed: true, textsStillOn: false });
    expect(historyOf(contactId)).toEqual([
      { given: true, source: "confirmation" },
      { given: false, source: "unsubscribe" },
    ]);
  });

  it("takes a mail client's RFC 8058 POST from another site: the form body List-Unsubscribe=One-Click", async () => {
    const { address, contactId } = consentingEmail();
    const header = listUnsubscribeHeaders(server.deps.env, contactId);
    expect(header["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const target = header["List-Unsubscribe"].match(/^<(.+)>$/)?.[1];
    expect(target).toMatch(new RegExp(`^${server.url}/api/unsubscribe\\?c=${contactId}&t=`));
    const response = await fetch(target!, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://mail.example.net",
        "sec-fetch-site": "cross-site",
      },
      body: header["List-Unsubscribe-Post"],
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ unsubscribed: true, textsStillOn: false });
    expect(hasConsent(server.deps.db, "email", address)).toBe(false);
  });

  it("refuses a bad token with 403 and changes nothing", async () => {
    const { address, contactId, token } = consentingEmail();
    for (const t of [`${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, "x", "a".repeat(199)]) {
      const response = await post(`c=${contactId}&t=${encodeURIComponent(t)}`);
      expect(response.status).toBe(403);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ success: false, code: "invalid_link" });
      expect(text).not.toContain(address);
      expect((await fetch(`${server.url}/api/unsubscribe?c=${contactId}&t=${encodeURIComponent(t)}`)).status).toBe(403);
    }
    // Missing or malformed parts are a plain 400.
    expect((await post(`c=${contactId}`)).status).toBe(400);
    expect((await post(`c=abc&t=${token}`)).status).toBe(400);
    expect(hasConsent(server.deps.db, "email", address)).toBe(true);
    expect(historyOf(contactId)).toEqual([{ given: true, source: "confirmation" }]);
  });

  it("a token opens only its own contact, and only for unsubscribing", async () => {
    const one = consentingEmail();
    const two = consentingEmail();
    expect((await post(`c=${two.contactId}&t=${one.token}`)).status).toBe(403);
    // Another purpose's token for the same id (a ticket link's) is refused too.
    const ticket = linkToken(server.deps.env, "ticket", two.contactId);
    expect((await post(`c=${two.contactId}&t=${ticket}`)).status).toBe(403);
    expect(hasConsent(server.deps.db, "email", one.address)).toBe(true);
    expect(hasConsent(server.deps.db, "email", two.address)).toBe(true);
  });

  it("says whether the number that booked with the address still takes texts, without naming it", async () => {
    const { db } = server.deps;
    const guest = insertAttendee(db, { email: `texts${++seq}@example.com` });
    const contactId = recordConsent(db, {
      channel: "email",
      address: guest.email,
      given: true,
      source: "confirmation",
      phone: null,
      at: server.deps.now(),
    });
    recordConsent(db, {
      channel: "sms",
      address: guest.phone,
      given: true,
      source: "booking",
      phone: guest.phone,
      at: server.deps.now(),
    });
    const token = unsubscribeToken(server.deps.env, contactId);
    const response = await post(`c=${contactId}&t=${token}`);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ unsubscribed: true, textsStillOn: true });
    expect(body).not.toContain(guest.phone);
    expect(body).not.toContain(guest.phone.slice(-6));
    expect(body).not.toContain(guest.email);
    // Once the number says STOP too, nothing is left on.
    recordConsent(db, {
      channel: "sms",
      address: guest.phone,
      given: false,
      source: "inbound",
      phone: guest.phone,
      at: server.deps.now(),
    });
    expect(await (await post(`c=${contactId}&t=${token}`)).json()).toEqual({ unsubscribed: true, textsStillOn: false });
  });
});
