import { readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Where a test lives (issue 48, item 3): a suite that tests one room sits beside that room, as
// api/<room>/*.test.ts (booking/, night/, organiser/, messaging/, ops/), even when it sets its scene
// through another room's calls (signing in as the organiser, adding an event, paying). test/ keeps the
// shared helpers (api-harness.ts, fixtures.ts, clock.ts, fakes/, suites/) and only the suites that
// cross rooms: a rule every room must keep (isolation, who is calling, bad input, headers), a story
// told across rooms, a check over the whole tree (import direction, docs, sizes), or several server
// processes at once. Each is listed below with why; a suite put in test/ without a line here fails.

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The suites test/ keeps, each with the reason it is not beside one room. */
const CROSS_ROOM: Record<string, string> = {
  "api-docs.test.ts": "docs/api.md and the OpenAPI document over every room's calls",
  "api-schemas.test.ts": "every room's replies checked against their schemas, through the one harness",
  "bad-input.test.ts": "every endpoint of every room answers bad input with a 4xx and changes nothing",
  "behind-a-proxy.test.ts": "the client's address behind a proxy, for the limits and cookies of every room",
  "caller-types.test.ts": "who is calling: the typed caller every room's handlers are given",
  "ci-jobs.test.ts": "the background installs of .ci/run, which both test phases wait for",
  "clock.test.ts": "the shared test clock's own test (test/clock.ts)",
  "cross-origin.test.ts": "every room's cookie-authenticated calls refuse another site",
  "direction-characters.test.ts": "every free text a client sends, in every room",
  "docs.test.ts": "the docs of the whole repository",
  "erasure.test.ts": "an erased guest leaves nothing in any room's tables or replies",
  "event-wire-names.test.ts": "reads every file of the PWA",
  "file-sizes.test.ts": "the size of every source file and function",
  "fixed-dates.test.ts": "the dates in every test file",
  "formats.test.ts": "an event's format from the organiser's Add through booking to the night's plan",
  "hold-processes.test.ts": "several server processes racing on one SQLite file",
  "import-direction.test.ts": "import direction between the areas and the rooms",
  "feature-imports.test.ts": "import direction between the PWA's features",
  "log-hygiene.test.ts": "what any room's code prints",
  "messages-in-templates.test.ts": "every room's messages, held in the templates",
  "multipart-once.test.ts": "the multipart calls of booking and the organiser, read once",
  "openapi-lint.test.ts": "the whole OpenAPI document against a linter",
  "openapi-operations.test.ts": "every operation's id, room tag and security",
  "outside-documents.test.ts": "every code comment of the tree",
  "pwa-reply-casts.test.ts": "reads every file of the PWA",
  "races.test.ts": "concurrent calls across holds, payments, refunds and the night's start",
  "reply-hook.test.ts": "reads every file of the PWA: loading a reply goes through one hook",
  "reply-types.test.ts": "every reply type of every room",
  "runtimes.test.ts": "one TypeScript program per runtime",
  "second-review.test.ts": "the second security review's findings: holds, the waitlist, the door and the CSV",
  "sqlite-in-db.test.ts": "SQLite-only code across the tree",
  "staff-routes.test.ts": "a host's event scope over every staff call",
  "suite-order.test.ts": "the order a clean clone runs every room's suites in (scripts/slow-first.ts)",
  "test-placement.test.ts": "this rule, over the whole tree",
  "times-through-intl.test.ts": "how every file formats a time",
  "transport-and-caching.test.ts": "the headers of every answer",
  "wants-to-meet-isolation.test.ts": "isolation: whom a guest would like to meet, over every route",
  "who-is-calling.test.ts": "who is calling, over every route",
};

/** Every test file under `dir`, relative to it. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path).map((name) => join(entry.name, name));
    return /\.test\.tsx?$/.test(entry.name) ? [relative(dir, path)] : [];
  });
}

/** The suites of test/ that `list` does not name, and the names of `list` that are not in test/. */
function misplaced(files: string[], list: Record<string, string>) {
  return {
    unlisted: files.filter((file) => !(file in list)).sort(),
    gone: Object.keys(list)
      .filter((name) => !files.includes(name))
      .sort(),
  };
}

describe("where a test lives", () => {
  it("test/ holds only the suites that cross rooms, each listed with its reason", () => {
    const found = misplaced(testFiles(join(root, "test")), CROSS_ROOM);
    expect(
      found.unlisted,
      `${found.unlisted.join(", ")}: a suite of one room lives beside it (api/<room>/); one that crosses rooms is listed in CROSS_ROOM with why`,
    ).toEqual([]);
    expect(found.gone, "listed in CROSS_ROOM but not in test/: remove the line").toEqual([]);
    for (const [name, reason] of Object.entries(CROSS_ROOM)) expect(reason.length, name).toBeGreaterThan(10);
  });

  it("catches a new single-room suite put in test/, and a line left for a suite that moved", () => {
    const list = { "who-is-calling.test.ts": "who is calling, over every route" };
    expect(misplaced(["who-is-calling.test.ts", "waitlist.test.ts"], list)).toEqual({
      unlisted: ["waitlist.test.ts"],
      gone: [],
    });
    expect(misplaced([], list)).toEqual({ unlisted: [], gone: ["who-is-calling.test.ts"] });
  });

  it("finds the API suites beside their rooms", () => {
    for (const room of ["booking", "night", "organiser", "messaging", "ops"])
      expect(testFiles(join(root, "api", room)).length, room).toBeGreaterThan(0);
  });
});
