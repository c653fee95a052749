// Writes test/suite-seconds.json, the order a clean clone runs the suites in (scripts/slow-first.ts),
// from the output of a CI run on stdin: `node scripts/suite-seconds.mjs < ci.log`. Each vitest file
// line (`✓ path.test.ts (N tests) 1234ms`) gives that suite's seconds; the slowest come first.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
// Colours (ESC [ … m) stripped first.
const log = readFileSync(0, "utf8").replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "");
const seconds = {};
for (const [, file, amount, unit] of log.matchAll(/^ [✓❯×] (\S+\.test\.tsx?) \(\d+ tests?[^)]*\)\s+([\d.]+)(m?s)/gmu)) {
  if (existsSync(resolve(root, file))) seconds[file] = Math.round((unit === "ms" ? amount / 1000 : +amount) * 10) / 10;
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([, a], [, b]) => b - a));
writeFileSync(resolve(root, "test/suite-seconds.json"), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/suite-seconds.json: ${Object.keys(sorted).length} suites`);
