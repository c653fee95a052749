import { defineConfig } from "vitest/config";

// Unit, UI-logic and API integration suites. Browser suites have their own config
// (vitest.browser.config.ts) because they need the built PWA and Chromium.
export default defineConfig({
  test: {
    include: [
      "api/**/*.test.ts",
      "common/**/*.test.ts",
      "db/**/*.test.ts",
      "pwa/**/*.test.{ts,tsx}",
      "test/**/*.test.ts",
    ],
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 30_000,
    setupFiles: ["test/fail-on-console-error.ts"],
  },
});
