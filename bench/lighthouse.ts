import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

// Lighthouse at its mobile defaults (a mid-range phone, simulated slow 4G), with the same Debian
// Chromium the browser tests use, on the pages a phone opens first. The goal: performance ≥ 98 and
// accessibility 100 on each (docs/decisions/007-scale.md). Each page is measured LIGHTHOUSE_RUNS times
// (default 5) and reported by its median run, as Lighthouse's own docs advise ("Score Variability": the
// median of five runs is about twice as stable as one), chosen by Lighthouse's `computeMedianRun`; the
// lowest and highest scores of the runs are reported beside it.
//
// Lighthouse is the bench's tool, not the app's: it and chrome-launcher, with their 179 packages
// (13,000 files), are locked in bench/tools/ and installed there from that lock the first time this
// part runs, so the app's `npm ci`, and CI's, does not unpack them (docs/decisions/067-ci-time-ninth-pass.md).

export const LIGHTHOUSE_PAGES = ["/", "/welcome", "/tickets", "/admin/door", "/me"] as const;

export type PageScores = {
  path: string;
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  /** How many runs the median run was chosen from, and their lowest and highest performance scores. */
  runs: { count: number; lowest: number; highest: number };
};

const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 5) || 5);
const score = (category: { score: number | null } | undefined) => Math.round((category?.score ?? 0) * 100);

/** Debian's Chromium (or CHROME_PATH), as the browser tests use. */
export const findChromium = () =>
  [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p): p is string =>
    Boolean(p && existsSync(p)),
  );

/** What this bench reads of a Lighthouse result (an LHR). */
type Lhr = {
  runtimeError?: { code: string; message: string };
  categories: { performance?: { score: number | null }; accessibility?: { score: number | null } };
  audits: Record<string, { numericValue?: number } | undefined>;
};

/** The parts of Lighthouse and chrome-launcher this bench calls, as their own modules export them. */
type LighthouseTools = {
  lighthouse: (url: string, flags: Record<string, unknown>) => Promise<{ lhr: Lhr } | undefined>;
  launch: (options: { chromePath: string; chromeFlags: string[] }) => Promise<{ port: number; kill: () => void }>;
  computeMedianRun: (runs: Lhr[]) => Lhr;
  filterToValidRuns: (runs: Lhr[]) => Lhr[];
};

const TOOLS = join(import.meta.dirname, "tools");

/** Lighthouse and chrome-launcher from bench/tools/, installed there from its lock if they are not yet. */
async function lighthouseTools(): Promise<LighthouseTools> {
  const modules = join(TOOLS, "node_modules");
  if (!existsSync(join(modules, "lighthouse", "package.json"))) {
    console.log("bench: installing Lighthouse in bench/tools/ from its lock (npm ci), once");
    execFileSync("npm", ["ci", "--prefix", TOOLS, "--no-audit", "--no-fund"], { stdio: "inherit" });
  }
  const load = (file: string) => import(pathToFileURL(join(modules, file)).href);
  const [core, launcher, median] = await Promise.all([
    load("lighthouse/core/index.js"),
    load("chrome-launcher/dist/index.js"),
    load("lighthouse/core/lib/median-run.js"),
  ]);
  return {
    lighthouse: core.default,
    launch: launcher.launch,
    computeMedianRun: median.computeMedianRun,
    filterToValidRuns: median.filterToValidRuns,
  };
}

/** The scores of each page, or null (after saying so loudly) when there is no Chromium to run it with. */
export async function measureLighthouse(appUrl: string): Promise<PageScores[] | null> {
  const chromePath = findChromium();
  if (!chromePath) {
    const line =
      "LIGHTHOUSE SKIPPED: no Chromium found. Install it with `apt-get install -y chromium` or set CHROME_PATH.";
    console.warn(`\n${"!".repeat(line.length)}\n${line}\n${"!".repeat(line.length)}\n`);
    return null;
  }
  const { lighthouse, launch, computeMedianRun, filterToValidRuns } = await lighthouseTools();
  const chrome = await launch({
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
      const lhrs = [];
      for (let i = 0; i < RUNS; i++) {
        let lhr = await run();
        // A run that saw no paint (Lighthouse's runtimeError, e.g. NO_LCP) scores 0 without measuring the
        // page: say so, and measure once more rather than count a 0 that is not the page's.
        if (lhr.runtimeError) {
          console.warn(`Lighthouse ${path}: ${lhr.runtimeError.code} (${lhr.runtimeError.message}); measuring again`);
          lhr = await run();
          if (lhr.runtimeError) console.warn(`Lighthouse ${path}: ${lhr.runtimeError.code} again; counted as 0`);
        }
        lhrs.push(lhr);
      }
      // Runs without an FCP or a TTI cannot be placed against the others; when none can, the first is reported.
      const valid = filterToValidRuns(lhrs);
      const median = valid.length > 0 ? computeMedianRun(valid) : (lhrs[0] as (typeof lhrs)[number]);
      const performances = lhrs.map((lhr) => score(lhr.categories.performance));
      scores.push({
        path,
        performance: score(median.categories.performance),
        accessibility: score(median.categories.accessibility),
        lcpMs: median.audits["largest-contentful-paint"]?.numericValue ?? 0,
        tbtMs: median.audits["total-blocking-time"]?.numericValue ?? 0,
        runs: { count: lhrs.length, lowest: Math.min(...performances), highest: Math.max(...performances) },
      });
    }
    return scores;
  } finally {
    chrome.kill();
  }
}
