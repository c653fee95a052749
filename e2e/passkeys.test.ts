import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect } from "vitest";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, desktop, newContext, noBrowser, submitOrganiserPassword } from "./harness.ts";
import { expectAccessible } from "./page-checks.ts";
import { openTab, organiserCookie, setupLinkFor } from "./steps.ts";
import { addVirtualAuthenticator, type VirtualAuthenticator } from "./virtual-authenticator.ts";

// Passkeys in a real browser (issue 49, docs/decisions/051-passkeys.md), with Chromium's virtual
// authenticator standing in for Face ID or a fingerprint: a member sets up with a passkey from the
// set-up link's page and signs in with it at /admin; another device's passkey and a removed member's
// are refused with words the person can act on; the owner adds one on the Team tab and, with the
// second factor required, signs in with it alone.
const test = browserSuite();

const REFUSED = "That passkey is not accepted here. Use another passkey or sign in another way.";

type Device = { context: BrowserContext; page: Page; pageErrors: string[]; authenticator: VirtualAuthenticator };

/** A desktop browser with a platform authenticator plugged in. */
async function device(browser: Parameters<typeof newContext>[0], url: string): Promise<Device> {
  const { context, pageErrors } = await newContext(browser, url, desktop);
  const page = await context.newPage();
  return { context, page, pageErrors, authenticator: await addVirtualAuthenticator(context, page) };
}

/** Adds a team member as the owner (POST /api/team): their set-up link, as the email carries it. */
async function addMember(server: AppServer, name: string, email: string, role = "finance") {
  const reply = await fetch(`${server.url}/api/team`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: await organiserCookie(server.url) },
    body: JSON.stringify({ name, email, role }),
  });
  expect(reply.status).toBe(201);
  const { id } = (await reply.json()) as { id: number };
  return { id, link: setupLinkFor(server, email) };
}

/** Opens /admin and presses Sign in with a passkey in its sign-in dialog. */
async function signInWithPasskey(page: Page) {
  await page.goto("/admin");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
}

describe.skipIf(noBrowser)("passkeys in Chromium's virtual authenticator", () => {
  test("a member sets up with a passkey from the set-up link, sees ten recovery codes, then signs in with it at /admin", async ({
    server,
    browser,
  }) => {
    const { link } = await addMember(server, "Priya", "priya@example.com");
    const member = await device(browser, server.url);
    try {
      const { page, authenticator } = member;
      await page.goto(link);
      await page.getByRole("button", { name: "Add a passkey" }).click();
      const codes = page.getByRole("list", { name: "Recovery codes" });
      await codes.waitFor();
      expect(await codes.getByRole("listitem").count()).toBe(10);
      // The authenticator now holds one discoverable passkey for this site.
      const [credential, ...others] = await authenticator.credentials();
      expect(others).toEqual([]);
      expect(credential).toEqual(expect.objectContaining({ isResidentCredential: true, rpId: "localhost" }));
      await expectAccessible(page, "the recovery codes after a passkey set-up");

      // Signing in asks no email: the browser offers the passkey it holds.
      await signInWithPasskey(page);
      await page.getByRole("tablist").waitFor();
      await expect.poll(async () => (await authenticator.credentials())[0]?.signCount).toBeGreaterThan(0);
      expect(member.pageErrors).toEqual([]);
    } finally {
      await member.context.close();
    }
  });

  test("another device's passkey is refused with words that say what to do", async ({ server, browser }) => {
    const stranger = await device(browser, server.url);
    try {
      // A passkey for this site the server never saw: made on another device, say.
      await stranger.authenticator.addCredential(strangerCredential());
      await signInWithPasskey(stranger.page);
      await stranger.page.getByRole("alert").filter({ hasText: REFUSED }).waitFor();
      await expectAccessible(stranger.page, "the sign-in dialog with a refused passkey");
      expect(await stranger.page.getByRole("tablist").count()).toBe(0);
    } finally {
      await stranger.context.close();
    }
  });

  test("a removed member's passkey stops working at once", async ({ server, browser }) => {
    const { id, link } = await addMember(server, "Dev", "dev@example.com", "door");
    const member = await device(browser, server.url);
    try {
      const { page } = member;
      await page.goto(link);
      await page.getByRole("button", { name: "Add a passkey" }).click();
      await page.getByRole("list", { name: "Recovery codes" }).waitFor();

      const removed = await fetch(`${server.url}/api/team-remove`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: await organiserCookie(server.url) },
        body: JSON.stringify({ id }),
      });
      expect(removed.status).toBe(200);

      await signInWithPasskey(page);
      await page.getByRole("alert").filter({ hasText: REFUSED }).waitFor();
      expect(await page.getByRole("tablist").count()).toBe(0);
    } finally {
      await member.context.close();
    }
  });

  // Last: it turns on the owner's second factor, which the password-only sign-ins above rely on being off.
  test("the owner adds a passkey on the Team tab, requires a second factor, and the passkey alone signs them in", async ({
    organiser,
  }) => {
    const { context, page } = organiser;
    const authenticator = await addVirtualAuthenticator(context, page);
    await openTab(page, "Team");
    await page.getByText("Passkeys: none yet").waitFor();
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByText("Your passkey is added.").waitFor();
    await page.getByText("Passkeys: 1").waitFor();
    expect(await authenticator.credentials()).toEqual([expect.objectContaining({ isResidentCredential: true })]);
    // The switch follows the server's answer, so it is clicked and its result awaited.
    const require = page.getByRole("switch", { name: "Require a second factor for the owner password" });
    await require.click();
    await page.getByText("The password alone no longer signs you in: a code or a passkey is asked too.").waitFor();
    await expect.poll(() => require.isChecked()).toBe(true);

    // Signed out, the password alone now asks for more; the passkey is a whole sign-in.
    await context.clearCookies();
    await page.goto("/admin");
    await submitOrganiserPassword(page);
    await page
      .getByText("Enter the code from your authenticator app or a recovery code, or sign in with a passkey.")
      .waitFor();
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.getByRole("tab", { name: "Team" }).waitFor();
    expect(organiser.pageErrors).toEqual([]);
  });
});

/** A discoverable P-256 credential for localhost that no server holds, as the protocol takes it. */
function strangerCredential() {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    credentialId: randomBytes(16).toString("base64"),
    isResidentCredential: true,
    rpId: "localhost",
    privateKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
    userHandle: Buffer.from("owner").toString("base64"),
    signCount: 0,
  };
}
