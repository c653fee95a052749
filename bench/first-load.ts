import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { findChromium } from "./lighthouse.ts";

// The home page's first load as a phone's browser makes it: every JavaScript file the page fetches
// until the network is idle (the entry, shared chunks, the update prompt, workbox-window, any lazy
// chunk), not only the scripts the HTML names. Each body is gzipped at level 9, as the rest of the
// bench does, so the figure does not depend on what the server happens to compress with.

export type FirstLoad = {
  files: { path: string; raw: number; gzip: number }[];
  raw: number;
  gzip: number;
};

/** The home page's JavaScript, or null (after saying so loudly) when there is no Chromium. */
export async function measureFirstLoad(appUrl: string): Promise<FirstLoad | null> {
  const executablePath = findChromium();
  if (!executablePath) {
    const line = "FIRST-LOAD JAVASCRIPT SKIPPED: no Chromium found. Install it or set CHROME_PATH.";
    console.warn(`\n${"!".repeat(line.length)}\n${line}\n${"!".repeat(line.length)}\n`);
    return null;
  }
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    // A first visit: a new profile, so nothing comes from the HTTP cache or a service worker.
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
      baseURL: appUrl,
    });
    const page = await context.newPage();
    const bodies: Promise<{ path: string; body: Buffer } | null>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      const path = new URL(response.url()).pathname;
      bodies.push(
        response.body().then(
          (body) => ({ path, body }),
          () => null,
        ),
      );
    });
    await page.goto("/", { waitUntil: "networkidle" });
    const fetched = (await Promise.all(bodies)).filter((b): b is { path: string; body: Buffer } => b !== null);
    await context.close();
    const files = fetched.map(({ path, body }) => ({
      path,
      raw: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
    }));
    return {
      files,
      raw: files.reduce((n, f) => n + f.raw, 0),
      gzip: files.reduce((n, f) => n + f.gzip, 0),
    };
  } finally {
    await browser.close();
  }
}
