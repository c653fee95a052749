import { existsSync } from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

// Lighthouse at its mobile defaults (a mid-range phone, simulated slow 4G), with the same Debian
// Chromium the browser tests use, on the pages a phone opens first. The goal: performance ≥ 98 and
// accessibility 100 on each (docs/decisions/007-scale.md).

export const LIGHTHOUSE_PAGES = ["/", "/welcome", "/tickets", "/admin/door", "/me"] as const;

export type PageScores = { path: string; performance: number; accessibility: number; lcpMs: number; tbtMs: number };

/** Debian's Chromium (or CHROME_PATH), as the browser tests use. */
export const findChromium = () =>
  [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p): p is string =>
    Boolean(p && existsSync(p)),
  );

/** The scores of each page, or null (after saying so loudly) when there is no Chromium to run it with. */
export async function measureLighthouse(appUrl: string): Promise<PageScores[] | null> {
  const chromePath = findChromium();
  if (!chromePath) {
    const line =
      "LIGHTHOUSE SKIPPED: no Chromium found. Install it with `apt-get install -y chromium` or set CHROME_PATH.";
    console.warn(`\n${"!".repeat(line.length)}\n${line}\n${"!".repeat(line.length)}\n`);
    return null;
  }
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const scores: PageScores[] = [];
    for (const path of LIGHTHOUSE_PAGES) {
      const run = async () => {
        const result = await lighthouse(`${appUrl}${path}`, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility"],
        });
        const lhr = result?.lhr;
        if (!lhr) throw new Error(`lighthouse gave no result for ${path}`);
        return lhr;
      };
      let lhr = await run();
      // A run that saw no paint (Lighthouse's runtimeError, e.g. NO_LCP) scores 0 without measuring the
      // page: say so, and measure once more rather than print a 0 that is not the page's.
      if (lhr.runtimeError) {
        console.warn(`Lighthouse ${path}: ${lhr.runtimeError.code} (${lhr.runtimeError.message}); measuring again`);
        lhr = await run();
        if (lhr.runtimeError) console.warn(`Lighthouse ${path}: ${lhr.runtimeError.code} again; reported as 0`);
      }
      scores.push({
        path,
        performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
        lcpMs: lhr.audits["largest-contentful-paint"]?.numericValue ?? 0,
        tbtMs: lhr.audits["total-blocking-time"]?.numericValue ?? 0,
      });
    }
    return scores;
  } finally {
    chrome.kill();
  }
}
