import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { SUITE_SECONDS_FILE } from "../scripts/slow-first.ts";

// The order a clean clone runs the suites in (scripts/slow-first.ts) names suites that exist, so a
// renamed or removed suite is renamed or removed there too (`node scripts/suite-seconds.mjs < ci.log`
// writes it afresh).

describe("test/suite-seconds.json", () => {
  const seconds: Record<string, number> = JSON.parse(readFileSync(SUITE_SECONDS_FILE, "utf8"));

  it("names only suites that exist, each with its seconds", () => {
    const root = resolve(import.meta.dirname, "..");
    expect(Object.keys(seconds).filter((file) => !existsSync(resolve(root, file)))).toEqual([]);
    expect(Object.values(seconds).every((value) => Number.isFinite(value) && value >= 0)).toBe(true);
    expect(Object.keys(seconds)).toContain("test/bad-input.test.ts");
  });
});
