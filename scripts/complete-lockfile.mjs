// Adds to package-lock.json the platform-specific optional packages (biome's and rollup's binaries
// for other systems) that this registry mirror does not serve. npm 11 then leaves them out of the
// lock when it writes it, and `npm ci` refuses a lock that lacks them ("Missing: … from lock file").
// The entries only describe the packages (version, os, cpu): on this platform npm skips them.
// Run after any `npm install` that rewrites the lock: `node scripts/complete-lockfile.mjs`.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const lockPath = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const packages = lock.packages;

function platformOf(name, version) {
  try {
    const meta = JSON.parse(
      execFileSync("npm", ["view", `${name}@${version}`, "os", "cpu", "libc", "license", "--json"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }),
    );
    if (meta && (meta.os || meta.cpu)) return meta;
  } catch {
    // Not served here: read the platform from the package's name (cli-darwin-arm64, rollup-linux-arm-musleabihf).
  }
  const [os, cpu, abi] = name
    .split("/")
    .pop()
    .replace(/^(cli|rollup)-/, "")
    .split("-");
  const meta = { os: [os], cpu: [cpu] };
  if (abi?.includes("musl")) meta.libc = ["musl"];
  else if (os === "linux" && abi?.includes("gnu")) meta.libc = ["glibc"];
  return meta;
}

let added = 0;
for (const [path, pkg] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ""}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    if (!/^\d+\.\d+\.\d+/.test(version)) continue;
    const meta = platformOf(name, version);
    const entry = { version };
    if (meta.cpu) entry.cpu = [].concat(meta.cpu);
    if (pkg.dev) entry.dev = true;
    if (meta.libc) entry.libc = [].concat(meta.libc);
    if (meta.license) entry.license = meta.license;
    entry.optional = true;
    if (meta.os) entry.os = [].concat(meta.os);
    packages[`node_modules/${name}`] = entry;
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform entries added`);
