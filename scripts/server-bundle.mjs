// How our server code is bundled to plain JavaScript, for `npm run build` (scripts/build-server.mjs)
// and for the release bench's server (bench/release.ts), so that the bench runs what production runs:
// esbuild, one ESM bundle per entry for Node 20, every package left to node_modules, and the
// migrations and Scalar's bundle copied beside the bundle, where the code finds them (`import.meta.url`).
import { cpSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** esbuild's options for a server bundle of `entryPoints` into `outdir`; `extra` adds to them. */
export function serverBundle(entryPoints, outdir, extra = {}) {
  return {
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
    ...extra,
  };
}

/**
 * What the bundles in `outdir` read beside themselves: the migrations, and Scalar's standalone bundle
 * for the API reference page (vendor/scalar/README.md).
 */
export function copyServerFiles(outdir) {
  cpSync(join(root, "db", "migrations"), join(outdir, "migrations"), { recursive: true });
  cpSync(join(root, "vendor", "scalar", "standalone.js"), join(outdir, "vendor", "scalar", "standalone.js"));
}
