import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import ts from "typescript";
import { checkRuntime, formatHost, RUNTIMES } from "./runtimes.ts";

// `npm run typecheck`: every runtime's program (scripts/runtimes.ts says which and why).
// `npm run typecheck -- browser sw` checks only those.
// Each program is single-threaded, so with more than one to check they run as child processes, as many at
// once as the machine has cores: on CI's two cores the four take about half the time they take in turn.

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !RUNTIMES.some((runtime) => runtime.name === name));
if (unknown.length > 0) {
  console.error(`unknown runtime ${unknown.join(", ")}; one of ${RUNTIMES.map((runtime) => runtime.name).join(", ")}`);
  process.exit(2);
}
const chosen = RUNTIMES.filter((runtime) => wanted.length === 0 || wanted.includes(runtime.name));

const [only] = chosen;
if (chosen.length === 1 && only) {
  const runtime = only;
  const started = performance.now();
  const diagnostics = checkRuntime(runtime);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${runtime.name} (${runtime.config}): ${diagnostics.length} error(s), ${seconds} s`);
  if (diagnostics.length > 0) console.log(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
  process.exit(diagnostics.length > 0 ? 1 : 0);
}

/** Checks one runtime in a child process; its output is printed whole when it ends, so programs never interleave. */
function checkInChild(name: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, name], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("close", (code) => {
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}

const queue = chosen.map((runtime) => runtime.name);
let failed = false;
const worker = async () => {
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    if (!(await checkInChild(name))) failed = true;
  }
};
await Promise.all(Array.from({ length: Math.min(availableParallelism(), queue.length) }, worker));
process.exit(failed ? 1 : 0);
