import type { Browser, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { browserSuite } from "./fixtures.ts";
import { noBrowser } from "./harness.ts";
import { expectAccessible } from "./page-checks.ts";

// The accessibility check every browser suite leans on (145 screens) must be able to fail: a screen
// with a serious or critical violation fails it and names the rule and the element; a moderate one
// does not; a sandboxed frame is left out without holding the run. No server: each screen is a
// document of its own. (Frames of the same origin are not proven here: @axe-core/playwright gives a
// frame one second to take axe, which a busy two-core machine does not always meet, and the PWA has
// no such frame.)

const test = browserSuite();

describe.skipIf(noBrowser)("expectAccessible, the axe check of a screen", () => {
  let browser: Browser;
  let page: Page | undefined;

  test.beforeAll(async ({ browser: fileBrowser }) => {
    browser = fileBrowser;
  });
  afterEach(async () => {
    await page?.context().close();
    page = undefined;
  });

  const screen = async (body: string) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    page = await context.newPage();
    // Served from an origin of its own (nothing leaves the machine), so a frame in it is same-origin.
    const html = `<!doctype html><html lang="en"><head><title>Probe</title></head><body>${body}</body></html>`;
    await page.route("http://probe.test/", (route) => route.fulfill({ contentType: "text/html", body: html }));
    await page.goto("http://probe.test/");
    return page;
  };
  const failure = (run: Promise<void>) =>
    run.then(
      () => "passed",
      // The assertion's message names the screen; the violations are its actual value.
      (error: Error & { actual?: unknown }) => `${error.message} ${String(error.actual)}`,
    );

  it("passes a screen with nothing serious, even with a moderate finding (text outside any landmark)", async () => {
    await expectAccessible(await screen("<h1>Tonight</h1><p>Doors open at 7:30 PM.</p>"), "a plain screen");
  });

  it("leaves out only rules whose findings are minor or moderate, and still finds what they would not", async () => {
    // axe gives each finding its rule's impact: a rule declared minor or moderate never reports a
    // serious one, so leaving it out of the run changes nothing the check asserts.
    const page = await screen("<main><h1>Tonight</h1></main>");
    await expectAccessible(page, "the probe");
    const rules = await page.evaluate(() =>
      (window as unknown as { axe: { _audit: { rules: { id: string; impact?: string }[] } } }).axe._audit.rules.map(
        ({ id, impact }) => ({ id, impact }),
      ),
    );
    const minorOrModerate = rules.filter((rule) => rule.impact === "minor" || rule.impact === "moderate");
    expect(minorOrModerate.map((rule) => rule.id)).toEqual(expect.arrayContaining(["region", "heading-order"]));
    expect(rules.find((rule) => rule.id === "color-contrast")?.impact).toBe("serious");
    // A moderate rule's finding carries the rule's impact even where its check's own is higher:
    // meta-viewport's check is critical, the rule moderate, and axe reports moderate.
    const reported = await page.evaluate(async () => {
      document.head.insertAdjacentHTML("beforeend", '<meta name="viewport" content="user-scalable=no">');
      const axe = (
        window as unknown as { axe: { run: (o: object) => Promise<{ violations: { id: string; impact: string }[] }> } }
      ).axe;
      const result = await axe.run({ runOnly: { type: "rule", values: ["meta-viewport"] } });
      return result.violations.map(({ id, impact }) => `${id}=${impact}`);
    });
    expect(reported).toEqual(["meta-viewport=moderate"]);
  });

  it("fails a button with no name and grey-on-white text, naming each rule and element", async () => {
    const page = await screen(
      '<main><h1>Pay</h1><button id="pay"></button><p id="faint" style="color:#ccc;background:#fff">Seats left: 3</p></main>',
    );
    const message = await failure(expectAccessible(page, "the probe"));
    expect(message).toContain("axe on the probe");
    expect(message).toMatch(/button-name \(critical\): #pay/);
    expect(message).toMatch(/color-contrast \(serious\): #faint/);
  });

  it("checks a document again after its screen changes, and a new document after a navigation", async () => {
    // axe is put in once per document and kept for the next check (page-checks.ts): a later check
    // on the same document still sees what changed, and a new document gets axe afresh.
    const page = await screen("<main><h1>Tonight</h1><p>Doors open at 7:30 PM.</p></main>");
    await expectAccessible(page, "the first screen");
    await page.evaluate(() =>
      document.querySelector("main")?.insertAdjacentHTML("beforeend", '<button id="late"></button>'),
    );
    expect(await failure(expectAccessible(page, "the changed screen"))).toMatch(/button-name \(critical\): #late/);
    await page.goto("http://probe.test/");
    await expectAccessible(page, "the screen after a navigation");
    await page.evaluate(() =>
      document.querySelector("main")?.insertAdjacentHTML("beforeend", '<button id="again"></button>'),
    );
    expect(await failure(expectAccessible(page, "the new document, changed"))).toMatch(
      /button-name \(critical\): #again/,
    );
  });

  it("leaves a sandboxed frame out and still returns", async () => {
    const page = await screen(
      '<main><h1>Email</h1><iframe sandbox="" title="The email" srcdoc="<img src=x>"></iframe></main>',
    );
    await expectAccessible(page, "a screen with a sandboxed frame");
  });
});
