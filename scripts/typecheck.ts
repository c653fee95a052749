import ts from "typescript";
import { checkRuntime, formatHost, RUNTIMES } from "./runtimes.ts";

// `npm run typecheck`: every runtime's program in turn (scripts/runtimes.ts says which and why).
// `npm run typecheck -- browser sw` checks only those.

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !RUNTIMES.some((runtime) => runtime.name === name));
if (unknown.length > 0) {
  console.error(`unknown runtime ${unknown.join(", ")}; one of ${RUNTIMES.map((runtime) => runtime.name).join(", ")}`);
  process.exit(2);
}

let errors = 0;
for (const runtime of RUNTIMES) {
  if (wanted.length > 0 && !wanted.includes(runtime.name)) continue;
  const started = performance.now();
  const diagnostics = checkRuntime(runtime);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${runtime.name} (${runtime.config}): ${diagnostics.length} error(s), ${seconds} s`);
  if (diagnostics.length > 0) console.log(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
  errors += diagnostics.length;
}
process.exit(errors > 0 ? 1 : 0);
