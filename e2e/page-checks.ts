import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Frame, Page } from "playwright-core";
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
  const analysis = injectAxeOnce(page).then(async () =>
    new AxeBuilder({ page, axeSource: AXE_INJECTED })
      .exclude("iframe[sandbox]")
      .disableRules(await rulesBelowSerious(page))
      // Every rule runs as before; only the violations are gathered in full (passes and incomplete
      // are not asserted), and axe runs in the page itself instead of in parts with a blank page of
      // its own to join them (for cross-origin frames, which the PWA has none of): about half the
      // time of a run on the two-core machine, with the same violations found. Either way
      // @axe-core/playwright gives a frame one second to take axe and leaves it out if it does not;
      // the PWA's one frame (the Invite preview) is sandboxed and checked on a page of its own.
      .options({ resultTypes: ["violations"] })
      .setLegacyMode()
      .analyze(),
  );
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
 * The rules whose findings can only be minor or moderate, which expectAccessible does not assert:
 * left out of the run, the same serious and critical violations are found. axe gives every finding of
 * a rule that rule's impact (a check's own impact only counts for a rule that declares none), so a
 * rule declared minor or moderate never reports more: `region`, `heading-order`, the `landmark-*`
 * rules and the others, about a quarter of a run's time on the two-core machine
 * (docs/decisions/061-ci-time.md). Read once from the axe-core the page holds.
 */
let belowSerious: Promise<string[]> | undefined;
function rulesBelowSerious(page: Page): Promise<string[]> {
  belowSerious ??= page
    .evaluate(() => {
      type Rule = { id: string; impact?: string };
      const rules: Rule[] = (window as unknown as { axe: { _audit: { rules: Rule[] } } }).axe._audit.rules;
      return rules.filter((rule) => rule.impact === "minor" || rule.impact === "moderate").map((rule) => rule.id);
    })
    .catch((error: unknown) => {
      // A page that closed mid-read fails this check only; the next one reads the list again.
      belowSerious = undefined;
      throw error;
    });
  return belowSerious;
}

/**
 * What @axe-core/playwright evaluates in each frame before every run, in place of axe-core's source:
 * nothing, as injectAxeOnce has put axe there. The builder evaluated axe-core's source twice per run
 * (once before choosing how to run, once per frame), and each evaluation built axe afresh: on the
 * two-core machine a check took about 1.0 s of Chromium's CPU after a navigation, 0.64 s with axe put
 * in once per document, with the same rules, options and findings (docs/decisions/061-ci-time.md).
 */
const AXE_INJECTED = "void 0";

/**
 * axe-core as its package builds it for pages: `axe.min.js` (580 KB), the same release and the same
 * code as `axe.source` (1.3 MB: its unminified function as text, which @axe-core/playwright sends by
 * default). A new document parses and compiles half the bytes: about 0.27 s instead of 0.42 s on the
 * two-core machine, with the same rules and findings (docs/decisions/062-ci-time-fifth-pass.md).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * axe-core's own source in each frame that does not hold it yet: once per document, kept there for
 * the next check on the same document (a page of the app changes its screen without a new document).
 * As @axe-core/playwright does, the page's own frame must take it, and another frame gets one second
 * and is left out if it does not.
 */
async function injectAxeOnce(page: Page) {
  const inject = async (frame: Frame) => {
    if (!(await frame.evaluate("typeof window.axe === 'object'"))) await frame.evaluate(AXE_SOURCE);
  };
  await inject(page.mainFrame());
  for (const frame of page.frames().filter((each) => each !== page.mainFrame())) {
    let timer: NodeJS.Timeout | undefined;
    const second = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 1000);
    });
    await Promise.race([inject(frame).catch(() => undefined), second]).finally(() => clearTimeout(timer));
  }
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

/**
 * A page whose first screen comes with its HTML (pwa/app/first-paint.tsx): `markDrawn` notes the
 * element `selector` finds once the HTML is parsed, before any code has run, and `keptDrawn` then says
 * whether the running page still shows that very element (hydrated), not one drawn again.
 */
export async function markDrawn(page: Page, selector: string) {
  await page.addInitScript((wanted) => {
    document.addEventListener("readystatechange", () => {
      if (document.readyState !== "interactive") return;
      (window as unknown as { drawn?: Element | null }).drawn = document.querySelector(wanted);
    });
  }, selector);
}

export function keptDrawn(page: Page, selector: string) {
  return page.evaluate((wanted) => {
    const drawn = (window as unknown as { drawn?: Element | null }).drawn;
    return Boolean(drawn) && drawn === document.querySelector(wanted);
  }, selector);
}

/** The errors a context's pages log, but failed loads (a refusal the page expects logs as one). */
export function consoleErrorsOf(context: BrowserContext): string[] {
  const errors: string[] = [];
  context.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      errors.push(message.text());
    }
  });
  return errors;
}
