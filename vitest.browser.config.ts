import { defineConfig } from "vitest/config";

// Browser suites: each file starts its own server (free port, temporary database) and Chromium.
// Two at a time suits the two-core machines.
export default defineConfig({
  test: {
    include: ["e2e/**/*.test.ts"],
    environment: "node",
    testTimeout: 90_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});
