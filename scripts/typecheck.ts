import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
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
/** Where the server's program writes its declarations, and where the others read them (set for the children). */
const WRITE_DECLARATIONS = "TYPECHECK_WRITE_DECLARATIONS";
const READ_DECLARATIONS = "TYPECHECK_READ_DECLARATIONS";
const chosen = RUNTIMES.filter((runtime) => wanted.length === 0 || wanted.includes(runtime.name));

const [only] = chosen;
if (chosen.length === 1 && only) {
  const runtime = only;
  const started = performance.now();
  const diagnostics = checkRuntime(runtime, undefined, {
    emitTo: process.env[WRITE_DECLARATIONS],
    readFrom: process.env[READ_DECLARATIONS],
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${runtime.name} (${runtime.config}): ${diagnostics.length} error(s), ${seconds} s`);
  if (diagnostics.length > 0) console.log(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
  process.exit(diagnostics.length > 0 ? 1 : 0);
}

/** Checks one runtime in a child process; its output is printed whole when it ends, so programs never interleave. */
function checkInChild(name: string, env: Record<string, string>): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, name], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
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

let failed = false;
/** Checks `names` in child processes, as many at once as the machine has cores, in the order given. */
async function checkAll(names: string[], env: Record<string, string>) {
  const queue = [...names];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      if (!(await checkInChild(name, env))) failed = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), queue.length) }, worker));
}

const names = chosen.map((runtime) => runtime.name);
if (names.includes("server") && names.length > 1) {
  // The server's program first, alone, writing the declarations of api/ and db/ as it checks them;
  // then the others, which read those instead of the sources (checkRuntime in ./runtimes.ts), the
  // tests' program (the longest) first.
  const dir = mkdtempSync(join(tmpdir(), "sdt-declarations-"));
  try {
    await checkAll(["server"], { [WRITE_DECLARATIONS]: dir });
    const rest = names.filter((name) => name !== "server").sort((a, b) => Number(b === "test") - Number(a === "test"));
    await checkAll(rest, { [READ_DECLARATIONS]: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  await checkAll(names, {});
}
process.exit(failed ? 1 : 0);
