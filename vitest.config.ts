import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { SlowFirst } from "./scripts/slow-first.ts";
import { walletBadgesAlias } from "./scripts/wallet-badges-alias.ts";

// Unit, UI-logic and API integration suites. Browser suites have their own config
// (vitest.browser.config.ts) because they need the built PWA and Chromium.
export default defineConfig({
  // The wallet badges' artwork, as the build reaches it (scripts/wallet-badges-alias.ts).
  resolve: { alias: [walletBadgesAlias] },
  test: {
    include: [
      "api/**/*.test.ts",
      "common/**/*.test.ts",
      "db/**/*.test.ts",
      "pwa/**/*.test.{ts,tsx}",
      "test/**/*.test.ts",
    ],
    environment: "node",
    // One worker per core and one more (vitest's default leaves one idle, half of CI's two), and files share a
    // worker's module cache instead of importing the app afresh each (`isolate: false`): on CI's two cores the
    // run went from 7 min 40 s to 3 min 20 s. The extra worker keeps both cores busy while a file waits on a
    // server it started or on a timer (the crash suites): 242 s with two, 200 s with three, 216 s with four
    // (docs/decisions/061-ci-time.md). Every suite makes its own database and port; a suite that changes
    // what outlives it (a fake clock, process.env, a module's state) puts it back in its after-hooks.
    maxWorkers: availableParallelism() + 1,
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    setupFiles: ["test/fail-on-console-error.ts"],
    // Under `.ci/run`, waits for the install scripts it runs beside the type check (scripts/ci-jobs.ts).
    globalSetup: ["test/ci-wait.ts"],
    // Where vitest has no durations of its own (a clean clone), the slowest suites start first
    // (scripts/slow-first.ts).
    sequence: { sequencer: SlowFirst },
  },
});
