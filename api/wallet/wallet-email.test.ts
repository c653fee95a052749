import { describe, expect, it } from "vitest";
import { type TestServer, withTestServer } from "../../test/api-harness.ts";
import { makeWalletKeys } from "../../test/fakes/wallet-keys.ts";
import { insertEvent } from "../../test/fixtures.ts";
import { pay } from "../../test/suites/booking-flow.ts";
import { paidOverHttp } from "../../test/suites/invoices.ts";
import { linkToken } from "../lib/capability.ts";
import { deliverPending } from "../messaging/outbox.ts";

// The ticket email's wallet badges (issue 50, docs/decisions/054-wallet-buttons.md): paid through the
// real calls, sent by the local mail provider and read back from its mailbox, as a guest gets it.

type Mail = { to: string; subject: string; text: string; html: string };

/** A seat paid over HTTP, and the booking email the local mailbox received for it. */
async function bookingEmailOf(server: TestServer) {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, { name: "Harbour Lights Mixer" });
  const held = await paidOverHttp(server, event.id);
  expect(await pay(server.url, held.sessionId)).toBe(303);
  await deliverPending(server.deps);
  const mails = (await (await fetch(`${server.url}/api/dev/mailbox`)).json()) as Mail[];
  const mail = mails.find((m) => m.subject === "Your ticket for Harbour Lights Mixer");
  expect(mail, "the booking email").toBeDefined();
  return { mail: mail!, bookingId: held.bookingId };
}

describe("the ticket email's wallet links", () => {
  it("carries Add to Apple Wallet and Add to Google Wallet, in both parts, when both are set up", async () => {
    await withTestServer({ env: makeWalletKeys().env }, async (server) => {
      const { mail, bookingId } = await bookingEmailOf(server);
      const base = server.deps.env.PUBLIC_BASE_URL;
      const token = linkToken(server.deps.env, "ticket", bookingId);
      const apple = `${base}/api/wallet/apple/${bookingId}?t=${token}`;
      const google = `${base}/tickets?add=${bookingId}&t=${token}&wallet=google`;
      expect(mail.text).toContain(`Add to Apple Wallet: ${apple}`);
      expect(mail.text).toContain(`Add to Google Wallet: ${google}`);
      expect(mail.html).toContain(`href="${apple}"`);
      expect(mail.html).toContain(">Add to Apple Wallet</a>");
      expect(mail.html).toContain(`href="${google.replaceAll("&", "&amp;")}"`);
      expect(mail.html).toContain(">Add to Google Wallet</a>");
      // Transactional: the badges are the ticket's, no offer comes with them.
      expect(mail.text).not.toMatch(/book again|discount|offer/i);
    });
  });

  it("carries neither without the wallets' settings", async () => {
    await withTestServer(async (server) => {
      const { mail } = await bookingEmailOf(server);
      for (const part of [mail.text, mail.html]) {
        expect(part).not.toContain("Wallet");
        expect(part).not.toContain("/api/wallet/");
      }
    });
  });
});
