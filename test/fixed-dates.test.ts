import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// No test holds a fixed date against the real clock (issue 48, item 3): a date written as 2031-05-03
// is safe only while nothing judges it past, and one day the clock does. A test's dates come from
// `yearLike(2031)` (test/clock.ts: the next year laid out like 2031), from the server's clock moved
// by the test, or the file pins its clock: `pinClock` (test/clock.ts), `vi.setSystemTime`,
// `vi.useFakeTimers` or a FAKETIME handed to the server it starts. A date that never meets the clock
// (a date of birth, a name) is fine, listed in ALLOWED below with why. Comments are not read.

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const AREAS = ["api", "common", "db", "pwa", "test", "e2e"];

/** A year 2026–2039 standing alone or opening a compact date (20311129T…), not inside a word or a number. */
const YEAR = /(?<![\w\\.])20(?:2[6-9]|3\d)(?!\d{1,3}(?!\d))/g;
/** What pins a file's clock. */
const PINS = /\bpinClock\(|\bvi\s*\.\s*(?:setSystemTime|useFakeTimers)\(|\bFAKETIME\b/;

/** Lines whose years never meet the clock, each with why (matched by a part of the line's text). */
const ALLOWED: { file: string; text: string; reason: string }[] = [
  {
    file: "pwa/features/door/check-in-queue.test.ts",
    text: 'EventDateTime: "2026-11-29T08:00:00.000Z"',
    reason: "a started night's time, in the past: it only grows older, and the queue's retries run on the real clock",
  },
  {
    file: "pwa/routes/participant-feedback.test.tsx",
    text: 'ratingsClosedAt: "2026-12-01T19:49:00.000Z"',
    reason: "when ratings closed, in the past: it only grows older; the countdowns here need the real clock",
  },
  {
    file: "pwa/features/rounds/components/rounds-console.test.tsx",
    text: '"2026-11-29T19:',
    reason: "tonight's started night and its arrivals, in the past; the round clocks here need the real clock",
  },
  {
    file: "pwa/features/rounds/components/rounds-console.test.tsx",
    text: 'resultsAt: "2026-11-30T01:00:00.000Z"',
    reason: "the results time of that night, in the past: nobody has rated and nothing is released",
  },
  {
    file: "e2e/organiser-first-use.test.ts",
    text: "const bookedAt = Date.UTC(2026, 10, 20, 8, 5)",
    reason: "when a booking was paid, in the past: it only grows older, and the page shows it as written",
  },
  {
    file: "e2e/organiser-first-use.test.ts",
    text: '"2026-11-20 07:06 PM AEDT"',
    reason: "the booking time above, as the organiser's page shows it",
  },
  {
    file: "e2e/organiser-first-use.test.ts",
    text: ",2026-11-20 19:0",
    reason: "the booking times above, as the participants CSV writes them",
  },
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The lines of `source` (the text of `file`, relative to the root) holding a fixed year against the real clock. */
function fixedDates(file: string, source: string, allowed = ALLOWED): string[] {
  if (PINS.test(source)) return [];
  return source.split("\n").flatMap((line, i) => {
    const code = line.trim();
    if (code.startsWith("//") || code.startsWith("*") || code.startsWith("/*")) return [];
    const years = [...line.matchAll(YEAR)].filter((m) => !/yearLike\(\s*$/.test(line.slice(0, m.index)));
    if (years.length === 0) return [];
    if (allowed.some((entry) => entry.file === file && line.includes(entry.text))) return [];
    return [`${file}:${i + 1}: ${code}`];
  });
}

describe("fixed dates in tests", () => {
  it("no test file holds a year 2026–2039 against the real clock", () => {
    const files = AREAS.flatMap((area) => testFiles(join(root, area)));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((path) => fixedDates(relative(root, path), readFileSync(path, "utf8")));
    expect(found, `use yearLike (test/clock.ts) or pin the file's clock (pinClock):\n${found.join("\n")}`).toEqual([]);
  });

  it("lists in ALLOWED only lines that are still there, each with its reason", () => {
    const gone = ALLOWED.filter(({ file, text }) => !readFileSync(join(root, file), "utf8").includes(text));
    expect(gone).toEqual([]);
    for (const { reason } of ALLOWED) expect(reason.length).toBeGreaterThan(10);
  });

  it("catches a fixed year, and lets yearLike, a pinned clock, an allowed line and non-dates through", () => {
    const check = (source: string) => fixedDates("x.test.ts", source, []);
    expect(check('const start = Date.parse("2031-05-03T08:00:00.000Z");')).toHaveLength(1);
    expect(check("insertEvent(db, dir, { startsAt: Date.UTC(2030, 5, 9, 7, 45) });")).toHaveLength(1);
    expect(check('expect(ics).toContain("DTSTART:20311204T080000Z");')).toHaveLength(1);
    expect(check('expect(csv).toContain("2039-12-01");')).toHaveLength(1);

    expect(check("const Y = yearLike(2031);\nconst start = Date.UTC(Y, 0, 1);")).toEqual([]);
    expect(check('pinClock(Date.parse("2031-01-01T00:00:00Z"));\nconst start = Date.UTC(2031, 0, 2);')).toEqual([]);
    expect(check('vi.setSystemTime(new Date("2031-01-01"));')).toEqual([]);
    expect(check("// Saturday 29 November 2031, 7 pm in Sydney.")).toEqual([]);
    expect(check('code: "STAFF2026", text: "\\u2028", phone: "+61420261234", ms: 20300')).toEqual([]);
    expect(
      fixedDates("x.test.ts", 'const born = "2030-01-01";', [{ file: "x.test.ts", text: "born", reason: "r" }]),
    ).toEqual([]);
  });
});
