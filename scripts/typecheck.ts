import { availableParallelism } from "node:os";
import { checkRuntime, formatProblems, RUNTIMES } from "./runtimes.ts";

// `npm run typecheck`: every runtime's program (scripts/runtimes.ts says which and why).
// `npm run typecheck -- browser sw` checks only those.
// Each program is checked on one thread, so with more than one to check they run side by side, as many
// at once as the machine has cores, in RUNTIMES' order: on CI's two cores the four take about half the
// time they take in turn.

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !RUNTIMES.some((runtime) => runtime.name === name));
if (unknown.length > 0) {
  console.error(`unknown runtime ${unknown.join(", ")}; one of ${RUNTIMES.map((runtime) => runtime.name).join(", ")}`);
  process.exit(2);
}
const queue = RUNTIMES.filter((runtime) => wanted.length === 0 || wanted.includes(runtime.name));

let failed = false;
const worker = async () => {
  for (let runtime = queue.shift(); runtime !== undefined; runtime = queue.shift()) {
    const started = performance.now();
    const problems = await checkRuntime(runtime);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    // A program's report is printed whole when it ends, so programs never interleave.
    const report = `${runtime.name} (${runtime.config}): ${problems.length} error(s), ${seconds} s`;
    console.log(problems.length > 0 ? `${report}\n${formatProblems(problems)}` : report);
    if (problems.length > 0) failed = true;
  }
};
await Promise.all(Array.from({ length: Math.min(availableParallelism(), queue.length) }, worker));
process.exit(failed ? 1 : 0);
