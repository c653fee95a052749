import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Issue 47, part 5: no code comment points at a document the repository does not hold. The product's
// specification, contract, style guide and research sit beside the repository, not in it, so a
// newcomer with a clone cannot follow a comment that names them; a comment says the rule itself, or
// names a file in the repository (docs/…), which test/docs.test.ts checks resolves.

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const AREAS = ["api", "bench", "common", "db", "e2e", "pwa", "scripts", "test"];
const OUTSIDE = /\b(?:SPEC|CONTRACT|STYLE|RESEARCH|DEVELOPERS)\.md\b|\.\.\/shared\//;
const self = fileURLToPath(import.meta.url);

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : codeFiles(path);
    return /\.(?:[cm]?[jt]sx?)$/.test(entry.name) && path !== self ? [path] : [];
  });
}

describe("documents outside the repository", () => {
  it("no code file names one", () => {
    const found = AREAS.flatMap((area) => codeFiles(join(root, area))).flatMap((path) =>
      readFileSync(path, "utf8")
        .split("\n")
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${relative(root, path)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found, found.join("\n")).toEqual([]);
  });
});
