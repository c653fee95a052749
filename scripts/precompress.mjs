// `npm run build`, after vite: each compressible file of the built PWA in dist/ gets its compressed
// copies beside it, `<file>.br` (brotli at its best quality) and `<file>.gz` (gzip at 9), the bytes the
// server would otherwise make at every start (api/lib/static-files.ts, which serves them). Brotli's
// best quality over the whole build took about a second of CPU at each start; now it is spent once.
// The service worker's precache list is written by vite before this runs, so it never names a copy.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** The extensions whose files static-files.ts compresses (its COMPRESSIBLE types), over 512 bytes. */
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".svg", ".txt"]);

/** Writes the copies for every compressible file under `dir`; returns how many files got them. */
export function precompress(dir) {
  let count = 0;
  for (const path of walk(dir)) {
    if (!COMPRESSIBLE.has(extname(path))) continue;
    const body = readFileSync(path);
    if (body.length <= 512) continue;
    writeFileSync(`${path}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
    count++;
  }
  return count;
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (!/\.(br|gz)$/.test(name)) yield path;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const started = performance.now();
  const dir = join(import.meta.dirname, "..", "dist");
  const count = precompress(dir);
  console.log(`precompress: ${count} files in dist/ in ${Math.round(performance.now() - started)} ms`);
}
