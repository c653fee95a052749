// `npm run build`'s second half: the server and the backup and restore commands compiled to plain
// JavaScript in build/, so that `npm start`, `npm run serve` and the Docker image run them with
// `node` alone, no TypeScript loader in production. esbuild bundles our own code into one file per
// command and leaves every package to node_modules; the migrations and the demo pictures, which the
// code finds beside itself (`import.meta.url`), are copied beside the bundles, with Scalar's bundle for
// the API reference page (vendor/scalar/README.md).
//
// A package the bundles import must be a runtime dependency: `npm prune --omit=dev` (the image)
// would remove any other, so the build fails naming it.
import { cpSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { build } from "esbuild";
import { copyServerFiles, root, serverBundle } from "./server-bundle.mjs";

const out = join(root, "build");
rmSync(out, { recursive: true, force: true });

const started = performance.now();
const result = await build(
  serverBundle({ server: "api/server.ts", backup: "scripts/backup.ts", restore: "scripts/restore.ts" }, out, {
    sourcemap: "linked",
    metafile: true,
  }),
);
copyServerFiles(out);
cpSync(join(root, "db", "seed-images"), join(out, "seed-images"), { recursive: true });

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const runtime = new Set(Object.keys(pkg.dependencies ?? {}));
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const packageOf = (spec) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);
const imported = new Set(
  Object.values(result.metafile.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.external && !builtins.has(i.path))
    .map((i) => packageOf(i.path)),
);
const missing = [...imported].filter((name) => !runtime.has(name));
if (missing.length > 0) {
  console.error(
    `build-server: these packages are imported at run time but are not dependencies: ${missing.join(", ")}`,
  );
  process.exit(1);
}
console.log(
  `build-server: build/server.js, build/backup.js, build/restore.js in ${Math.round(performance.now() - started)} ms`,
);
