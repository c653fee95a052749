import { defineConfig } from "vitest/config";
import { SlowFirst } from "./scripts/slow-first.ts";

// Browser suites: each file starts its own server (free port, temporary database) and Chromium.
// Three at a time on the two-core machines: with two, the whole run used about half of the two cores
// (user and system time 13 min 17 s in 14 min 13 s), its suites mostly waiting on pages and servers.
export default defineConfig({
  test: {
    include: ["e2e/**/*.test.ts"],
    environment: "node",
    testTimeout: 90_000,
    // A hook starts a server and Chromium: seconds alone, up to a minute or more on two busy cores.
    hookTimeout: 120_000,
    maxWorkers: 3,
    // Under `.ci/run`, waits for Chromium and the install scripts it runs beside earlier phases
    // (scripts/ci-jobs.ts).
    globalSetup: ["e2e/ci-wait.ts"],
    // Files share a worker's module cache (the harness, the schema, sharp) instead of importing them
    // afresh each; no browser suite changes what outlives it (process.env, a fake clock, a mock).
    isolate: false,
    // A test waits for the state it expects: expect.poll's own default (1 s) is too short for a page
    // on two shared cores (a photo shrunk and uploaded, a service worker installing), so polls wait
    // up to 15 s and pass as soon as the state is there.
    expect: { poll: { timeout: 15_000 } },
    // Where vitest has no durations of its own (a clean clone), the slowest suites start first
    // (scripts/slow-first.ts).
    sequence: { sequencer: SlowFirst },
  },
});
