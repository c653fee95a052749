import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * What `.ci/run` installs in the background while `npm test` does work that needs neither: Chromium
 * from Debian (the browser suites) and the packages' install scripts, better-sqlite3's compile among
 * them (every suite that opens a database). The type check, the lint and the build need neither;
 * the compile starts beside `npm ci` (docs/decisions/063-ci-time-sixth-pass.md,
 * docs/decisions/065-ci-time-seventh-pass.md).
 */
export type CiJob = "chromium" | "install-scripts";

/** Where `.ci/run` says its background jobs write `<job>.status` (their exit code, when they end) and `<job>.log`. */
const CI_JOBS_DIR = "CI_JOBS";

/**
 * Waits until each job has ended, and fails with the end of its log if one failed. Nothing to wait
 * for without CI_JOBS (a developer's `npm test`, where `npm install` ran every install script).
 */
export async function waitForCiJobs(
  jobs: readonly CiJob[],
  { dir = process.env[CI_JOBS_DIR], pollMs = 250, timeoutMs = 15 * 60_000 } = {},
): Promise<void> {
  if (!dir) return;
  for (const job of jobs) {
    const status = join(dir, `${job}.status`);
    const deadline = Date.now() + timeoutMs;
    while (!existsSync(status)) {
      if (Date.now() > deadline) throw new Error(`.ci/run's ${job} job has not ended after ${timeoutMs / 1000} s`);
      await sleep(pollMs);
    }
    const code = readFileSync(status, "utf8").trim();
    if (code !== "0") {
      const log = join(dir, `${job}.log`);
      const tail = existsSync(log) ? readFileSync(log, "utf8").split("\n").slice(-40).join("\n") : "(no log)";
      throw new Error(`.ci/run's ${job} job failed (exit ${code}):\n${tail}`);
    }
  }
}
