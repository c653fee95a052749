import { afterEach, vi } from "vitest";

// An unexpected console.error is a bug the test didn't look for: fail the test that caused it.
// A test that expects one replaces the spy with its own (vi.spyOn(console, "error").mockImplementation).
let calls: unknown[][] = [];
const original = console.error;
console.error = (...args: unknown[]) => {
  calls.push(args);
  original(...args);
};
afterEach(() => {
  const seen = calls;
  calls = [];
  if (vi.isMockFunction(console.error)) return;
  if (seen.length) throw new Error(`console.error was called:\n${seen.map((a) => a.map(String).join(" ")).join("\n")}`);
});
