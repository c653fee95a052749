// How our server code is bundled to plain JavaScript, for `npm run build` (scripts/build-server.mjs)
// and for the release bench's server (bench/release.ts), so that the bench runs what production runs:
// esbuild, one ESM bundle per entry for Node 20, every package left to node_modules, and the
// migrations copied beside the bundle, where the code finds them (`import.meta.url`).
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

/** The migrations beside the bundles in `outdir`. */
export function copyMigrations(outdir) {
  cpSync(join(root, "db", "migrations"), join(outdir, "migrations"), { recursive: true });
}
