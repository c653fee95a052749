import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
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

/** Where `@neostore/cinto` keeps Apple's and Google's badge artwork. */
const BADGES = dirname(fileURLToPath(import.meta.resolve("@neostore/cinto")));
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

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
      // Each badge is the wallet's own artwork, inline, its words the image's alternative text.
      expect(mail.html).toMatch(
        new RegExp(`href="${escapeRegExp(apple)}"[^>]*><img src="cid:wallet-apple"[^>]*alt="Add to Apple Wallet"`),
      );
      expect(mail.html).toContain(`href="${google.replaceAll("&", "&amp;")}"`);
      expect(mail.html).toMatch(
        new RegExp(
          `href="${escapeRegExp(google.replaceAll("&", "&amp;"))}"[^>]*><img src="cid:wallet-google"[^>]*alt="Add to Google Wallet"`,
        ),
      );
      const sent = server.deps.devMailbox?.messages().find((m) => m.subject === mail.subject);
      for (const [cid, file] of [
        ["wallet-apple", "apple/en.svg"],
        ["wallet-google", "google/en-AU.svg"],
      ] as const) {
        const png = sent?.attachments?.find((a) => a.cid === cid);
        expect(png?.contentType, cid).toBe("image/png");
        // A PNG drawn from the package's own SVG: 80 px tall (twice the email's 40), its width in the
        // artwork's proportions.
        const meta = await sharp(png?.content as Buffer).metadata();
        const svg = await sharp(join(BADGES, file)).metadata();
        expect(meta.format).toBe("png");
        expect(meta.height).toBe(80);
        expect(
          Math.abs((meta.width ?? 0) - Math.round((80 * (svg.width ?? 0)) / (svg.height ?? 1))),
        ).toBeLessThanOrEqual(1);
      }
      // Transactional: the badges are the ticket's, no offer comes with them.
      expect(mail.text).not.toMatch(/book again|discount|offer/i);
    });
  });

  it("carries neither without the wallets' settings", async () => {
    await withTestServer(async (server) => {
      const { mail } = await bookingEmailOf(server);
      const sent = server.deps.devMailbox?.messages().find((m) => m.subject === mail.subject);
      expect(sent?.attachments?.map((a) => a.filename)).not.toContain("wallet-apple.png");
      for (const part of [mail.text, mail.html]) {
        expect(part).not.toContain("Wallet");
        expect(part).not.toContain("/api/wallet/");
      }
    });
  });
});
