import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Inside pwa/, imports flow one way: lib/ and components/ ← features/ ← routes/ ← app/
// (docs/decisions/047-the-phones-code-by-what-it-is-for.md). A feature owns its files; another feature
// reaches it only through its `index.ts`, a small public surface of re-exports, so a newcomer changing a
// feature's insides knows who else can see them.
//
// pwa/app/ is above the features (its router imports every route, and the routes import features), so a
// feature importing app/ would close a cycle. The one exception is app/paths.ts, the table of the
// PWA's addresses: it imports nothing, so a link in a feature can name a page without a cycle.

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

// Every import and re-export, static or dynamic, with whether it brings types only; a bare
// `import "./x.css"` counts too (a stylesheet belongs to its feature like its code).
const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

type Violation = { file: string; specifier: string; rule: string };

/** `pwa/features/rounds/x.ts` → ["features", "rounds", "x.ts"]; null outside pwa/. */
const insidePwa = (path: string): string[] | null => {
  const parts = relative(root, path).split(/[\\/]/);
  return parts[0] === "pwa" ? parts.slice(1) : null;
};

/** What `source`, the text of `file`, imports against the rules above. */
function forbiddenImports(file: string, source: string): Violation[] {
  const from = insidePwa(file);
  if (!from || from.length < 2) return [];
  const found: { specifier: string; typeOnly: boolean }[] = [];
  for (const m of source.matchAll(IMPORT)) found.push({ specifier: m[3]!, typeOnly: Boolean(m[2]) });
  for (const m of source.matchAll(DYNAMIC)) found.push({ specifier: m[1]!, typeOnly: false });
  const violations: Violation[] = [];
  for (const { specifier, typeOnly } of found) {
    if (!specifier.startsWith(".")) continue; // packages; api/, common/ and db/ are import-direction.test.ts's
    const to = insidePwa(resolve(dirname(file), specifier));
    if (!to) continue;
    const rule =
      from[0] === "features"
        ? featureRule(from[1]!, to)
        : (from[0] === "lib" || from[0] === "components") && !typeOnly && ["features", "routes", "app"].includes(to[0]!)
          ? `${from[0]}/ is shared by the features: it imports no feature, route or app/ code (types only)`
          : null;
    if (rule) violations.push({ file: relative(root, file), specifier, rule });
  }
  return violations;
}

function featureRule(feature: string, to: string[]): string | null {
  const [area, name] = to;
  if (area === "lib" || area === "components") return null;
  if (area === "app") return to.join("/") === "app/paths.ts" ? null : "a feature imports no app/ file but paths.ts";
  if (area !== "features") return "a feature imports only lib/, components/, app/paths.ts and features";
  if (name === feature) return null;
  if (to.length === 3 && to[2] === "index.ts") return null;
  return `a feature reaches another only through its index.ts: import features/${name}/index.ts`;
}

/** A feature's index.ts is a public surface, not a place for code: re-exports only. */
function indexProblems(file: string, source: string): string[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(/export\s+(type\s+)?\{[^}]*\}\s+from\s+["'][^"']+["'];?/g, "")
    .trim();
  return code === "" ? [] : [`${relative(root, file)}: only \`export { … } from "./…"\` lines belong in an index.ts`];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("imports between the PWA's features", () => {
  it("reach another feature only through its index.ts, and lib/ and components/ import no feature", () => {
    const files = ["features", "components", "lib"].flatMap((area) => sourceFiles(join(root, "pwa", area)));
    expect(files.length).toBeGreaterThan(100);
    const violations = files.flatMap((file) => forbiddenImports(file, readFileSync(file, "utf8")));
    expect(violations).toEqual([]);
  });

  it("keeps each feature's index.ts to re-exports, and app/paths.ts a file that imports nothing", () => {
    const indexes = sourceFiles(join(root, "pwa/features")).filter((f) => /[\\/]index\.ts$/.test(f));
    expect(indexes.flatMap((f) => indexProblems(f, readFileSync(f, "utf8")))).toEqual([]);
    expect(readFileSync(join(root, "pwa/app/paths.ts"), "utf8")).not.toMatch(/^\s*import\b/m);
  });

  it("catches each forbidden import, and lets the allowed ones through", () => {
    const at = (path: string) => join(root, path);
    const rounds = at("pwa/features/rounds/components/rounds-console.tsx");
    expect(forbiddenImports(rounds, 'import { useAdminEvents } from "../../admin/use-admin-events.ts";')).toEqual([
      expect.objectContaining({ rule: expect.stringContaining("through its index.ts") }),
    ]);
    expect(forbiddenImports(rounds, 'import "../../admin/admin.css";')).toHaveLength(1);
    expect(forbiddenImports(rounds, 'const m = await import("../../results/use-results.ts");')).toHaveLength(1);
    expect(
      forbiddenImports(rounds, 'export { ResultsPanel } from "../../results/components/results-panel.tsx";'),
    ).toHaveLength(1);
    expect(forbiddenImports(rounds, 'import { AppRouter } from "../../../app/router.tsx";')).toHaveLength(1);
    expect(forbiddenImports(rounds, 'import { HostPage } from "../../../routes/host.tsx";')).toHaveLength(1);
    expect(
      forbiddenImports(at("pwa/components/ui/x.tsx"), 'import { x } from "../../features/door/door-api.ts";'),
    ).toHaveLength(1);
    expect(forbiddenImports(at("pwa/lib/x.ts"), 'import { x } from "../features/door/index.ts";')).toHaveLength(1);

    expect(forbiddenImports(rounds, 'import { ResultsPanel } from "../../results/index.ts";')).toEqual([]);
    expect(forbiddenImports(rounds, 'import { useRounds } from "../use-rounds.ts";')).toEqual([]);
    expect(forbiddenImports(rounds, 'import { Dialog } from "../../../components/ui/dialog.tsx";')).toEqual([]);
    expect(forbiddenImports(rounds, 'import { api } from "../../../lib/api.ts";')).toEqual([]);
    expect(forbiddenImports(rounds, 'import { paths } from "../../../app/paths.ts";')).toEqual([]);
    expect(forbiddenImports(rounds, 'import { x } from "../../../../common/formats.ts";')).toEqual([]);
    expect(forbiddenImports(at("pwa/lib/x.ts"), 'import type { X } from "../features/night/my-rounds.ts";')).toEqual(
      [],
    );
    expect(
      indexProblems(at("pwa/features/x/index.ts"), 'export { A } from "./a.ts";\nexport type { B } from "./b.ts";'),
    ).toEqual([]);
    expect(indexProblems(at("pwa/features/x/index.ts"), "export const a = 1;")).toHaveLength(1);
  });
});
