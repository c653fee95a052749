import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite, type Screen } from "./fixtures.ts";
import { desktop, newContext, noBrowser, phone, submitOrganiserPassword } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { addEvent, authenticatorCode, openTab, setupLinkFor } from "./steps.ts";

// The organiser's team (issue 49) in a browser: the owner adds a Finance member on the Team tab; the
// member opens the emailed set-up link on a phone, sets a password and an authenticator app (its codes
// computed here from the otpauth address, as the app would), keeps the ten recovery codes, signs in
// and sees only Finance's tabs; the owner removes them and their open page is signed out. Last, the
// owner sets up their own authenticator app and requires it: the password alone then asks for a code.
const test = browserSuite();

const PRIYA = { name: "Priya Nair", email: "priya@example.com" };
/** How often an open panel asks whether its session lives (features/admin/components/admin-panel.tsx). */
const SESSION_CHECK_MS = 30_000;

/** The address the set-up page's authenticator link opens: the otpauth URI, with the key in it. */
const otpauthOf = async (page: Page) => {
  const href = await page.getByRole("link", { name: "Open it in your authenticator app" }).getAttribute("href");
  expect(href).toMatch(/^otpauth:\/\/totp\/.+secret=/);
  return href!;
};

describe.skipIf(noBrowser)("the organiser's team", () => {
  let setupLink = "";
  let memberOtpauth = "";
  let member: Screen;

  test("the owner adds a member on the Team tab, with clear errors and the duplicate email refused", async ({
    organiser,
    server,
  }) => {
    await addEvent(server, { name: "Team Night" });
    const { page } = organiser;
    await openTab(page, "Team");
    await page.getByText("No team members yet", { exact: false }).waitFor();
    await expectAccessible(page, "the Team tab with nobody yet, at 1366 px");

    // Nothing typed: each field says what it needs, and the first takes the focus.
    await page.getByRole("button", { name: "Add member" }).click();
    await page.getByText("Enter the person's name.").waitFor();
    await page.getByText("Enter the email their set-up link goes to.").waitFor();
    await page.getByText("Choose what they may do: Manager, Finance or Door.").waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("team-name");

    await page.getByLabel("Name", { exact: true }).fill(PRIYA.name);
    await page.getByLabel("Email", { exact: true }).fill(PRIYA.email);
    await page.getByLabel("Role", { exact: true }).selectOption({ label: "Finance" });
    await page.getByRole("button", { name: "Add member" }).click();
    await page.getByText(`${PRIYA.name} is invited as Finance.`).waitFor();
    const row = page.getByRole("list", { name: "Team members" }).getByRole("listitem").filter({ hasText: PRIYA.name });
    await row.getByText("Invited", { exact: true }).waitFor();
    await row.getByText("Not set up yet", { exact: true }).waitFor();
    await row.getByText("Never", { exact: true }).waitFor();

    // The same address again is said on the email field.
    await page.getByLabel("Name", { exact: true }).fill("Priya Again");
    await page.getByLabel("Email", { exact: true }).fill(PRIYA.email.toUpperCase());
    await page.getByLabel("Role", { exact: true }).selectOption({ label: "Door" });
    await page.getByRole("button", { name: "Add member" }).click();
    await page.getByText("Someone on the team already has this email.").waitFor();
    await expectAccessible(page, "the Team tab with a member and an error, at 1366 px");

    setupLink = setupLinkFor(server, PRIYA.email);
    expect(setupLink).toMatch(/^\/admin\/setup\?t=/);
    expect(organiser.pageErrors).toEqual([]);
  });

  test("the Team tab fits a phone and passes axe there", async ({ server, browser }) => {
    const { context, pageErrors } = await newContext(browser, server.url, phone);
    try {
      const page = await context.newPage();
      await page.goto("/admin?tab=team");
      await submitOrganiserPassword(page);
      await page.getByRole("list", { name: "Team members" }).getByText(PRIYA.name).waitFor();
      await expectAccessible(page, "the Team tab at 390 px");
      await expectNoSidewaysScroll(page);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("the member sets a password and an authenticator app on a phone, and keeps ten recovery codes", async ({
    server,
    browser,
  }) => {
    const opened = await newContext(browser, server.url, phone);
    member = { ...opened, page: await opened.context.newPage() };
    // The panel's session check runs on the page's own clock, which this test moves later.
    await member.context.clock.install();
    const { page } = member;
    await page.goto(setupLink);
    await page.getByRole("heading", { name: "Set up your sign-in" }).waitFor();
    await page.getByRole("button", { name: "Add a passkey" }).waitFor();
    await expectAccessible(page, "the set-up page at 390 px");
    await expectNoSidewaysScroll(page);

    await page.getByRole("button", { name: "Use a password and an app" }).click();
    await page.getByLabel("New password").fill("short");
    await page.getByLabel("Type it again").fill("short");
    await page.getByRole("button", { name: "Save the password" }).click();
    await page.getByText("Use at least 12 characters.").waitFor();
    await page.getByLabel("New password").fill("correct horse battery");
    await page.getByLabel("Type it again").fill("correct horse battery");
    await page.getByRole("button", { name: "Save the password" }).click();

    await page.getByRole("heading", { name: "Connect your authenticator app" }).waitFor();
    await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    memberOtpauth = await otpauthOf(page);
    await expectAccessible(page, "the set-up page's authenticator step at 390 px");
    const right = authenticatorCode(memberOtpauth);
    await page.getByLabel("Code from the app").fill(right === "111111" ? "222222" : "111111");
    await page.getByRole("button", { name: "Confirm the code" }).click();
    await page.getByText("That code is not the one the app shows now.", { exact: false }).waitFor();
    await page.getByLabel("Code from the app").fill(authenticatorCode(memberOtpauth));
    await page.getByRole("button", { name: "Confirm the code" }).click();

    const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await page.getByRole("heading", { name: "Your recovery codes" }).waitFor();
    await expect.poll(() => codes.count()).toBe(10);
    await expectAccessible(page, "the recovery codes at 390 px");
    await page.getByRole("button", { name: "I have saved these" }).click();
    await page.getByRole("heading", { name: "You're set up" }).waitFor();
    // Shown once: the codes are gone from the page.
    expect(await page.getByRole("list", { name: "Recovery codes" }).count()).toBe(0);

    // The link is used: opening it again says so.
    const again = await browser.newContext({ ...desktop, baseURL: server.url });
    try {
      const used = await again.newPage();
      await used.goto(setupLink);
      await used.getByRole("heading", { name: "Set up your sign-in" }).waitFor();
      await expectAccessible(used, "the set-up page at 1366 px");
      await used.getByRole("button", { name: "Use a password and an app" }).click();
      await used.getByLabel("New password").fill("another long password");
      await used.getByLabel("Type it again").fill("another long password");
      await used.getByRole("button", { name: "Save the password" }).click();
      await used.getByRole("heading", { name: "This set-up link no longer works" }).waitFor();
      await expectAccessible(used, "the dead set-up link at 1366 px");
    } finally {
      await again.close();
    }
    expect(member.pageErrors).toEqual([]);
  });

  it("the member signs in with their email, password and code, and sees only Finance's tabs", async () => {
    const { page } = member;
    await page.getByRole("link", { name: "Go to the admin page" }).click();
    await page.getByRole("heading", { name: "Team sign-in" }).waitFor();
    await page.getByRole("button", { name: "Sign in with a passkey" }).waitFor();
    await expectAccessible(page, "the team sign-in at 390 px");
    await page.getByLabel("Email", { exact: true }).fill(PRIYA.email);
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
    // The set-up used this step's code, and a code is good once: the app's next one.
    await page.getByLabel("Code", { exact: true }).fill(authenticatorCode(memberOtpauth, 1));
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("tablist").waitFor();
    expect(await page.getByRole("tablist").getByRole("tab").allTextContents()).toEqual([
      "Overview",
      "User Details",
      "Reports",
    ]);
    await page.getByText("Priya Nair (Finance)", { exact: true }).waitFor();
    expect(await page.getByRole("link", { name: "Door" }).count()).toBe(0);
    await page.getByRole("button", { name: "Sign out everywhere" }).waitFor();
    await expectAccessible(page, "a Finance member's panel at 390 px");
    await expectNoSidewaysScroll(page);
    expect(member.pageErrors).toEqual([]);
  });

  test("the owner sees the member active, removes them by keyboard, and the member's open page is signed out", async ({
    organiser,
  }) => {
    const { page } = organiser;
    await openTab(page, "Team");
    const row = page.getByRole("list", { name: "Team members" }).getByRole("listitem").filter({ hasText: PRIYA.name });
    await row.getByText("Active", { exact: true }).waitFor();
    await row.getByText("Password and authenticator app", { exact: true }).waitFor();
    await expect.poll(() => row.getByText("Never", { exact: true }).count()).toBe(0);

    // The confirmation opens on Go back; Escape closes it with nothing done.
    await row.getByRole("button", { name: `Remove ${PRIYA.name}` }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: `Remove ${PRIYA.name}?` });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Go back");
    await expectAccessible(page, "the Remove confirmation");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe(`Remove ${PRIYA.name}`);
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByText(`${PRIYA.name} is removed.`).waitFor();
    await page.getByText("No team members yet", { exact: false }).waitFor();

    // The member's page, still open, learns at its next session check that it is over.
    await member.context.clock.fastForward(SESSION_CHECK_MS + 1_000);
    await member.page.getByRole("heading", { name: /Admin login|Team sign-in/ }).waitFor();
    expect(await member.page.getByRole("tablist").count()).toBe(0);
    expect(member.pageErrors).toEqual([]);
    await member.context.close();
  });

  test("the owner requires a second factor: the password alone then asks for the code", async ({
    organiser,
    server,
    browser,
  }) => {
    const { page } = organiser;
    await openTab(page, "Team");
    const require = page.getByRole("switch", { name: "Require a second factor for the owner password" });
    await require.waitFor();
    expect(await require.isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    const otpauth = await otpauthOf(page);
    await page.getByLabel("Code from the app").fill(authenticatorCode(otpauth));
    await page.getByRole("button", { name: "Confirm the code" }).click();
    await expect.poll(() => page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").count()).toBe(10);
    await page.getByRole("button", { name: "I have saved these" }).click();
    await expect.poll(() => require.isEnabled()).toBe(true);
    // The switch shows the server's word: it turns on once the call has answered.
    await require.click();
    await expect.poll(() => require.isChecked()).toBe(true);
    await expectAccessible(page, "the owner's sign-in settings, at 1366 px");

    const { context } = await newContext(browser, server.url, desktop);
    try {
      const other = await context.newPage();
      await other.goto("/admin");
      await submitOrganiserPassword(other);
      await other.getByText("Enter the code from your authenticator app", { exact: false }).waitFor();
      await other.getByLabel("Code", { exact: true }).fill(authenticatorCode(otpauth, 1));
      await other.getByRole("button", { name: "Submit" }).click();
      await other.getByRole("tablist").waitFor();
      expect(await other.getByRole("tablist").getByRole("tab").allTextContents()).toContain("Team");
      await other.getByText("Owner", { exact: true }).waitFor();
    } finally {
      await context.close();
    }
  });
});
