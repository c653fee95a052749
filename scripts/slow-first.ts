import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const root = resolve(import.meta.dirname, "..");

/**
 * How long each suite took on CI's two cores (test/suite-seconds.json, written from a CI log by
 * `node scripts/suite-seconds.mjs < ci.log`). Only an order: a suite missing from it runs after the
 * listed ones, and an old figure only makes the order a little worse.
 */
export const SUITE_SECONDS_FILE = resolve(root, "test/suite-seconds.json");

/**
 * The test order for a run with no durations of its own (a clean clone: CI): slowest first, from
 * test/suite-seconds.json. vitest orders a run by the durations it cached at the last run on the
 * machine, longest first; without them it starts the largest files first, and small files that take
 * half a minute (the crash suites, the type-check probes) started among the last, with a core idle
 * while they ran. The unit phase took 195 s in that order, 182 s in this one, on the same machine
 * (docs/decisions/061-ci-time.md). With durations of its own, vitest's order stands.
 */
export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const cached = ordered.some((file) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`),
    );
    if (cached) return ordered;
    const seconds: Record<string, number> = JSON.parse(readFileSync(SUITE_SECONDS_FILE, "utf8"));
    const key = (file: TestSpecification) => relative(root, file.moduleId).split("\\").join("/");
    return ordered
      .map((file, index) => ({ file, index, seconds: seconds[key(file)] ?? 0 }))
      .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
      .map(({ file }) => file);
  }
}
