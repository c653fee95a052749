// `npm run build`, after vite: the first screen of the pages pwa/app/first-paint.tsx names, drawn at
// build time into dist/first-paint.json, which the server writes into each page's HTML
// (api/lib/static-files.ts; docs/decisions/064-first-paint-in-the-html.md). esbuild bundles the
// PWA's own code for Node once (styles and pictures left out: only markup is drawn; the packages
// are node_modules' own production builds), then React draws each page.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");
const dist = join(root, "dist");
/** The file the server reads: FIRST_PAINT_FILE in common/first-paint.ts (a test holds the two equal). */
export const FIRST_PAINT_FILE = "first-paint.json";

/**
 * Draws each page and returns what dist/first-paint.json holds (common/first-paint.ts); `manifest` is
 * the path of the client build's Vite manifest, which names the drawn page's styles.
 */
export async function drawFirstPaint(manifest = join(dist, ".vite", "manifest.json")) {
  // Inside the project, so the bundle finds the packages it leaves to node_modules.
  mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
  const out = mkdtempSync(join(root, "node_modules", ".cache", "first-paint-"));
  try {
    const file = join(out, "first-paint.mjs");
    await build({
      entryPoints: [join(root, "pwa", "app", "first-paint.tsx")],
      outfile: file,
      bundle: true,
      packages: "external",
      platform: "node",
      format: "esm",
      jsx: "automatic",
      define: { "process.env.NODE_ENV": '"production"' },
      loader: { ".css": "empty", ".svg": "empty", ".png": "empty", ".jpg": "empty", ".webp": "empty" },
      logLevel: "error",
      // What only Vite provides, for pages no first paint draws: the wallet badges' alias
      // (scripts/wallet-badges-alias.ts), the service worker's registration (the update prompt), and
      // a package's styles (uPlot's).
      plugins: [
        {
          name: "vite-only",
          setup(b) {
            b.onResolve({ filter: /^(@wallet-badges\/|virtual:pwa-register\/)|\.css$/ }, (args) => ({
              path: args.path,
              namespace: "vite-only",
            }));
            b.onLoad({ filter: /.*/, namespace: "vite-only" }, () => ({
              contents: `export default ""; export const useRegisterSW = () => { throw new Error("not drawn at build time"); };`,
            }));
          },
        },
      ],
    });
    const { FIRST_PAINT_PAGES, HYDRATED_PAGES, firstPaint } = await import(pathToFileURL(file).href);
    const styles = new Map(
      HYDRATED_PAGES.map(({ path, module, styles: which }) => [
        path,
        stylesOf(manifest, module, which).map((href) => `<link rel="stylesheet" crossorigin href="${href}">`),
      ]),
    );
    const pages = {};
    for (const path of FIRST_PAINT_PAGES) {
      const { html, hydrate } = await firstPaint(path);
      // React puts a preload of each picture before the markup (the logo); the picture itself is in
      // the markup, which the browser's scanner finds as early, so the preloads are left out.
      const markup = html.replace(/^(?:<link [^>]*>)*/, "");
      pages[path] = { head: hydrate ? (styles.get(path) ?? []) : [], root: markup, hydrate };
    }
    return pages;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * The stylesheets a page's chunk loads that the entry does not, from Vite's manifest: linked from the
 * page's HTML so its drawn screen is styled, and found there by the chunk's loader, which then does
 * not fetch them again. `all`: the page's and those of the chunks it imports; `own`: the page's alone.
 */
function stylesOf(path, module, which) {
  const manifest = JSON.parse(readFileSync(path, "utf8"));
  const closure = (key, seen = new Set()) => {
    if (seen.has(key) || !manifest[key]) return seen;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) closure(imported, seen);
    return seen;
  };
  const cssOf = (keys) => new Set([...keys].flatMap((key) => manifest[key].css ?? []));
  if (!manifest[module]) throw new Error(`first-paint: Vite's manifest has no ${module}`);
  const entryCss = cssOf(closure("index.html"));
  const styled = which === "own" ? new Set([module]) : closure(module);
  return [...cssOf(styled)].filter((css) => !entryCss.has(css)).map((css) => `/${css}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // The packages' production builds, as the app ships them (the bundle leaves them to node_modules).
  process.env.NODE_ENV = "production";
  const started = performance.now();
  const pages = await drawFirstPaint();
  writeFileSync(join(dist, FIRST_PAINT_FILE), `${JSON.stringify(pages, null, 2)}\n`);
  const ms = Math.round(performance.now() - started);
  console.log(`first paint: ${Object.keys(pages).length} pages drawn into dist/${FIRST_PAINT_FILE} in ${ms} ms`);
}
