import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Times are read through Intl.DateTimeFormat with the venue's zone (common/time-zone.ts: venueClock,
// venueDateAndClock, venueWeekday, venueDayMonth), never built by hand: no 12-hour arithmetic and no
// table of month or weekday names in the code the app runs.

const root = join(import.meta.dirname, "..");
const HANDMADE = [
  { what: "a 12-hour clock built by hand", pattern: /%\s*12\b/ },
  { what: "a table of month names", pattern: /["'](Jan|January)["']\s*,\s*["'](Feb|February)["']/ },
  {
    what: "a table of weekday names",
    pattern: /["'](Sun|Sunday|Mon|Monday)["']\s*[,:]\s*["'](Mon|Monday|Tue|Tuesday)["']/,
  },
  { what: "AM/PM chosen by hand", pattern: /<\s*12\s*\?\s*["']AM["']/ },
];

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1));
}

describe("times", () => {
  it("are formatted through Intl, with no hand-built clock or name tables", () => {
    const found: string[] = [];
    for (const file of ["api", "common", "pwa", "db", "scripts"].flatMap(sources)) {
      const text = readFileSync(join(root, file), "utf8");
      for (const { what, pattern } of HANDMADE) {
        text.split("\n").forEach((line, i) => {
          if (pattern.test(line)) found.push(`${file}:${i + 1}: ${what}`);
        });
      }
    }
    expect(found).toEqual([]);
  });
});
