// `node scripts/vendor-scalar.mjs <version>`: puts Scalar's standalone bundle of that version of
// `@scalar/api-reference` in vendor/scalar/ (its README says why it is kept there and not installed).
// The tarball comes from the npm registry, is checked against the integrity the registry publishes
// for it, and only its prebuilt browser bundle is kept; vendor/scalar/bundle.json records the version,
// that integrity and the bundle's own SHA-256, which test/vendor-scalar.test.ts holds the file to.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./server-bundle.mjs";

const PACKAGE = "@scalar/api-reference";
const IN_TARBALL = "package/dist/browser/standalone.js";

const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
  console.error("usage: node scripts/vendor-scalar.mjs <version>, e.g. 1.46.4");
  process.exit(2);
}

const npm = (...args) => execFileSync("npm", args, { encoding: "utf8" }).trim();
const integrity = npm("view", `${PACKAGE}@${version}`, "dist.integrity");
const work = mkdtempSync(join(tmpdir(), "vendor-scalar-"));
try {
  const tarball = join(work, npm("pack", "--silent", "--pack-destination", work, `${PACKAGE}@${version}`));
  const packed = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
  if (packed !== integrity) throw new Error(`${PACKAGE}@${version}: the tarball does not match ${integrity}`);
  execFileSync("tar", ["-xzf", tarball, "-C", work, IN_TARBALL]);
  const target = join(root, "vendor", "scalar", "standalone.js");
  copyFileSync(join(work, IN_TARBALL), target);
  const sha256 = createHash("sha256").update(readFileSync(target)).digest("hex");
  const record = { package: PACKAGE, version, file: IN_TARBALL, integrity, sha256 };
  writeFileSync(join(root, "vendor", "scalar", "bundle.json"), `${JSON.stringify(record, null, 2)}\n`);
  console.log(`vendor/scalar/standalone.js: ${PACKAGE} ${version} (sha256 ${sha256})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
