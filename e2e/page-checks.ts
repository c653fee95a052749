import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** How long one axe run may take before it fails, naming the screen (a run takes a few seconds). */
const AXE_BOUND_MS = 60_000;

/**
 * axe-core on the current screen: no serious or critical violations, each named with where it is.
 *
 * Sandboxed frames are left out: with Debian's Chromium 156, axe never returns on a page holding one
 * (`<iframe sandbox>`), so a screen that shows one (the Invite tab's email preview) checks the frame's
 * document on a page of its own with `expectAccessibleHtml`. A run that does not return within
 * AXE_BOUND_MS fails at once, naming the screen, instead of holding the suite until its time-out.
 */
export async function expectAccessible(page: Page, screen: string) {
  const analysis = new AxeBuilder({ page })
    .exclude("iframe[sandbox]")
    // Every rule runs as before; only the violations are gathered in full (passes and incomplete
    // are not asserted), and axe runs in the page itself instead of in parts with a blank page of
    // its own to join them (for cross-origin frames, which the PWA has none of): about half the
    // time of a run on the two-core machine, with the same violations found. Either way
    // @axe-core/playwright gives a frame one second to take axe and leaves it out if it does not;
    // the PWA's one frame (the Invite preview) is sandboxed and checked on a page of its own.
    .options({ resultTypes: ["violations"] })
    .setLegacyMode()
    .analyze();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`axe on ${screen} did not return within ${AXE_BOUND_MS / 1000} s`)),
      AXE_BOUND_MS,
    );
  });
  const results = await Promise.race([analysis, bound]).finally(() => clearTimeout(timer));
  const bad = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(bad, `axe on ${screen}`).toEqual([]);
}

/**
 * axe-core on a document of its own (an email's HTML, as a mail client shows it), in a new page of
 * the same browser context, closed afterwards.
 */
export async function expectAccessibleHtml(from: Page, html: string, screen: string) {
  const page = await from.context().newPage();
  try {
    await page.setContent(html);
    await expectAccessible(page, screen);
  } finally {
    await page.close();
  }
}
/** Nothing is wider than the screen: no sideways scrolling (at 390 px on the phone). */
export async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** Waits until the service worker is installed, active and controlling the page. */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true }),
      );
    }
  });
}
