import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect } from "vitest";
import { browserSuite } from "./fixtures.ts";
import { noBrowser } from "./harness.ts";

// Chromium applies only the last `--disable-features` switch it is given, and Playwright passes a
// list of its own first (the features it turns off so pages behave the same from run to run). The
// suites' browser must keep that list and add RenderDocument to it (e2e/harness.ts): read back from
// the running browser's command line, as Chromium itself reads it.

const marker = `--sdt-flags-probe=${randomUUID()}`;
const test = browserSuite({ browserArgs: [marker] });

/** The browser process's command line: the one that carries `marker`, not a renderer's (`--type=`). */
function browserCommandLine(): string[] {
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue; // a process that ended while the list was read
    }
    if (args.includes(marker) && !args.some((arg) => arg.startsWith("--type="))) return args;
  }
  throw new Error(`no browser process carries ${marker}`);
}

describe.skipIf(noBrowser)("the browser the suites launch", () => {
  test("keeps every feature Playwright turns off, and turns RenderDocument off too", ({ browser }) => {
    expect(browser.isConnected()).toBe(true);
    const switches = browserCommandLine()
      .filter((arg) => arg.startsWith("--disable-features="))
      .map((arg) => arg.slice("--disable-features=".length).split(","));
    const applied = switches.at(-1) ?? [];
    const named = [...new Set(switches.flat())];
    // Playwright's own list is there to be kept (PaintHolding is one of its features).
    expect(named).toContain("PaintHolding");
    expect(named.filter((feature) => !applied.includes(feature))).toEqual([]);
    expect(applied).toContain("RenderDocument");
  });
});
