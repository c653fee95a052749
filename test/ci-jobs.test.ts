import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitForCiJobs } from "../scripts/ci-jobs.ts";

// `.ci/run` installs Chromium and runs the packages' install scripts in the background; each test
// phase waits for what it needs (scripts/ci-jobs.ts). A phase must neither start before its job has
// ended nor pass over a job that failed.

const dirs: string[] = [];
function jobsDir() {
  const dir = mkdtempSync(join(tmpdir(), "sdt-ci-jobs-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("waitForCiJobs", () => {
  it("waits for nothing outside .ci/run (no jobs directory)", async () => {
    // "" and not undefined, which would take CI_JOBS from the environment: under .ci/run it is set.
    await expect(waitForCiJobs(["chromium"], { dir: "", timeoutMs: 0 })).resolves.toBeUndefined();
  });

  it("ends only once every job it names has ended well", async () => {
    const dir = jobsDir();
    let ended = false;
    const waiting = waitForCiJobs(["install-scripts", "chromium"], { dir, pollMs: 5 }).then(() => {
      ended = true;
    });
    writeFileSync(join(dir, "chromium.status"), "0\n");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended).toBe(false);
    writeFileSync(join(dir, "install-scripts.status"), "0\n");
    await waiting;
    expect(ended).toBe(true);
  });

  it("fails with the end of a failed job's log", async () => {
    const dir = jobsDir();
    writeFileSync(join(dir, "install-scripts.log"), "gyp ERR! build error\ngyp ERR! not ok\n");
    writeFileSync(join(dir, "install-scripts.status"), "1\n");
    await expect(waitForCiJobs(["install-scripts"], { dir, pollMs: 5 })).rejects.toThrow(
      /install-scripts job failed \(exit 1\):[\s\S]*gyp ERR! not ok/,
    );
  });

  it("gives up on a job that never ends", async () => {
    const dir = jobsDir();
    await expect(waitForCiJobs(["chromium"], { dir, pollMs: 5, timeoutMs: 30 })).rejects.toThrow(
      "chromium job has not ended",
    );
  });
});
