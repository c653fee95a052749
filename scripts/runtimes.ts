import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";

// One TypeScript program per runtime, so code written for the wrong one fails `npm run typecheck`:
// - server: api/, db/, scripts/, bench/, common/ and the tool configs; ES2023 and Node, no DOM.
// - browser: pwa/ (not sw.ts, not tests) and common/; DOM and Vite's client types, no Node.
// - sw: pwa/sw.ts and what it imports; WebWorker, no DOM, no Node.
// - test: every test file (Node, plus DOM for the callbacks e2e/ hands to Chromium through
//   page.evaluate and for pwa/ tests that run under happy-dom).
//
// Libs are a program's globals, but @types/node is not: the PWA imports types from api/ (the typed
// client reads AppType from api/app.ts, the door its roster from api/services/roster.ts), and the
// server's packages (better-sqlite3, undici) bring `/// <reference types="node" />` with them, which
// TypeScript applies to the whole program. So for the browser and the service worker, a second pass
// reports every name in their own files that only @types/node declares (process, Buffer, NodeJS,
// `node:` modules). A name that the DOM or WebWorker lib also declares (setTimeout, fetch, URL) is
// theirs and stays allowed.

export const ROOT = path.resolve(import.meta.dirname, "..");

export type Runtime = {
  name: string;
  config: string;
  /** Folders (relative to the repo) whose files must not use what only Node has. */
  noNode: string[];
  /**
   * The files (repo-relative paths) whose errors this program reports: its own runtime's code. A
   * program also reads what its files import from other runtimes (the PWA's typed client reads the
   * API's types; a test imports what it tests), and the program of that code's own runtime reports it.
   */
  owns: RegExp;
};

/**
 * The order `npm run typecheck` starts them in. Checked alone (2026-12-04): the tests' program 16 s,
 * reading the most (every suite and what it tests); the browser's 12 s and its Node-only pass 10 s
 * more; the server's and the service worker's about 10 s each. Two at a time on CI's two cores, the
 * last one ends at about the same time whichever order they start in (docs/decisions/061-ci-time.md).
 */
export const RUNTIMES: Runtime[] = [
  { name: "test", config: "tsconfig.test.json", noNode: [], owns: /^(test|e2e)\/|\.test\.tsx?$/ },
  { name: "server", config: "tsconfig.server.json", noNode: [], owns: /^(?!node_modules\/)/ },
  { name: "browser", config: "tsconfig.browser.json", noNode: ["pwa", "common"], owns: /^(pwa|common)\// },
  { name: "sw", config: "tsconfig.sw.json", noNode: ["pwa", "common"], owns: /^(pwa|common)\// },
];

export function readConfig(runtime: Runtime): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, runtime.config), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  });
  if (!parsed) throw new Error(`cannot read ${runtime.config}`);
  return parsed;
}

const nodeTypes = `${path.sep}node_modules${path.sep}@types${path.sep}node${path.sep}`;
const onlyNode = (symbol: ts.Symbol | undefined) => {
  const declarations = symbol?.declarations ?? [];
  return (
    declarations.length > 0 &&
    declarations.every((declaration) => path.resolve(declaration.getSourceFile().fileName).includes(nodeTypes))
  );
};

/**
 * Names in the runtime's own files (in its noNode folders) that only Node declares. TypeScript 5.9
 * reads those files (and what they import from the same folders, nothing else) with the runtime's
 * libs and Node's types: a name that resolves only to a declaration in @types/node is refused,
 * whether or not the runtime's full program happens to have Node's types.
 */
function nodeOnlyNames(runtime: Runtime, root: string, only?: string[]): Problem[] {
  if (runtime.noNode.length === 0) return [];
  const config = readConfig(runtime);
  // In a probe's copy of the repository, a linked folder's files are read from where they really are.
  const folders = [...new Set([root, ROOT])].flatMap((base) =>
    runtime.noNode.map((folder) => path.join(base, folder) + path.sep),
  );
  const inFolders = (file: string) => folders.some((folder) => path.resolve(file).startsWith(folder));
  const options: ts.CompilerOptions = { ...config.options, types: ["node"], typeRoots: undefined, noEmit: true };
  const host = ts.createCompilerHost(options);
  const { getSourceFile } = host;
  host.getCurrentDirectory = () => root;
  host.getSourceFile = (file, language, ...rest) => {
    const key = `${file}\0${JSON.stringify(language)}`;
    const cached = parsed.get(key);
    if (cached) return cached;
    const source = getSourceFile(file, language, ...rest);
    // Libraries and Node's types are the same for every call; the runtime's own files may not be.
    if (source && !inFolders(file)) parsed.set(key, source);
    return source;
  };
  host.resolveModuleNameLiterals = (literals, containingFile, _redirected, compilerOptions) =>
    literals.map((literal) => {
      const resolved = ts.resolveModuleName(literal.text, containingFile, compilerOptions, host);
      const file = resolved.resolvedModule?.resolvedFileName;
      return file && inFolders(file) ? resolved : { resolvedModule: undefined };
    });
  const rootNames = only
    ? only.filter((file) => inFolders(path.join(root, file))).map((file) => path.join(root, file))
    : config.fileNames.filter(inFolders);
  const program = ts.createProgram({ rootNames, options, host });
  const checker = program.getTypeChecker();
  const found: Problem[] = [];
  for (const file of program.getSourceFiles()) {
    if (!inFolders(file.fileName)) continue;
    // `process.env`, `NodeJS.Timeout`: one report, for the left-hand name.
    const leftIsNode = (node: ts.Node) => {
      const parent = node.parent;
      if (parent && ts.isPropertyAccessExpression(parent) && parent.name === node)
        return onlyNode(checker.getSymbolAtLocation(parent.expression));
      if (parent && ts.isQualifiedName(parent) && parent.right === node)
        return onlyNode(checker.getSymbolAtLocation(parent.left));
      return false;
    };
    const visit = (node: ts.Node) => {
      if (
        (ts.isIdentifier(node) || ts.isStringLiteral(node)) &&
        onlyNode(checker.getSymbolAtLocation(node)) &&
        !leftIsNode(node)
      ) {
        const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
        found.push({
          file: repoPath(file.fileName, root),
          line: line + 1,
          column: character + 1,
          code: "node-only",
          message: `'${node.text}' exists only in Node: the ${runtime.name} runtime (${runtime.config}) does not have it.`,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/** Files TypeScript 5.9 has parsed that are the same for every program: the libraries and Node's types. */
const parsed = new Map<string, ts.SourceFile>();

/** One error as a program reports it: where (repo-relative, forward slashes; empty for the options) and what. */
export type Problem = { file: string; line: number; column: number; code: string; message: string };

/**
 * The check itself is TypeScript 7 (`typescript-7`, TypeScript's compiler written in Go): the same
 * language and the same errors as TypeScript 5.9 on these four programs, in about half the CPU time
 * (docs/decisions/065-ci-time-seventh-pass.md). It has no stable JavaScript API yet, so the
 * Node-only pass below, which asks what a name means, still reads the code with TypeScript 5.9's.
 */
const TSGO = path.join(path.dirname(createRequire(import.meta.url).resolve("typescript-7/package.json")), "bin/tsc");

/** `file(line,col): error TS1234: message`, the message's further lines indented below it. */
const REPORTED = /^(.*)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const GLOBAL = /^error (TS\d+): (.*)$/;

function parseReport(output: string, root: string): Problem[] {
  const problems: Problem[] = [];
  for (const line of output.split("\n")) {
    const at = REPORTED.exec(line);
    const global = at ? null : GLOBAL.exec(line);
    if (at) {
      const [, file = "", row = "0", column = "0", code = "", message = ""] = at;
      problems.push({
        file: repoPath(path.resolve(root, file), root),
        line: Number(row),
        column: Number(column),
        code,
        message,
      });
    } else if (global) {
      const [, code = "", message = ""] = global;
      problems.push({ file: "", line: 0, column: 0, code, message });
    } else if (line.startsWith(" ") && problems.length > 0) {
      const last = problems[problems.length - 1] as Problem;
      last.message += ` ${line.trim()}`;
    }
  }
  return problems;
}

/** Runs TypeScript 7 on one config, one thread (the programs run side by side, one per core). */
function runTsgo(config: string, root: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSGO, "-p", config, "--noEmit", "--singleThreaded", "--pretty", "false"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const text = Buffer.concat(output).toString("utf8");
      // 0: no errors; 1 or 2: errors reported. Anything else (a crash, a signal) is not a result.
      if (code === 0 || code === 1 || code === 2) resolve(text);
      else reject(new Error(`TypeScript 7 on ${config} ended with ${code}: ${text.slice(-2000)}`));
    });
  });
}

/**
 * A copy of the repository's layout under a temporary folder for in-memory files (the test that
 * proves each runtime refuses the others' globals, test/runtimes.test.ts): each top-level entry is a
 * link to the real one, except a folder that holds one of the files, which is a real folder of links
 * to its entries with the file written beside them. The program's roots are those files alone (plus
 * what they import), through a tsconfig that extends the runtime's.
 */
function mirror(runtime: Runtime, files: Record<string, string>): { root: string; config: string } {
  const root = mkdtempSync(path.join(tmpdir(), "sdt-runtime-probe-"));
  const folders = new Set(Object.keys(files).map((file) => file.split("/")[0] ?? file));
  for (const entry of readdirSync(ROOT)) {
    if (entry === ".git") continue;
    if (!folders.has(entry)) {
      symlinkSync(path.join(ROOT, entry), path.join(root, entry));
      continue;
    }
    mkdirSync(path.join(root, entry));
    for (const inner of readdirSync(path.join(ROOT, entry))) {
      symlinkSync(path.join(ROOT, entry, inner), path.join(root, entry, inner));
    }
  }
  for (const [file, text] of Object.entries(files)) {
    const target = path.join(root, file);
    mkdirSync(path.dirname(target), { recursive: true });
    rmSync(target, { force: true });
    writeFileSync(target, text);
  }
  const config = "tsconfig.runtime-probe.json";
  writeFileSync(
    path.join(root, config),
    JSON.stringify({ extends: `./${runtime.config}`, include: [], files: Object.keys(files) }),
  );
  return { root, config };
}

/**
 * Type-checks one runtime: TypeScript 7's errors in the runtime's own files, then the names only
 * Node declares in its noNode folders. `extra` adds files (path relative to the repo → text) for the
 * test that proves each runtime refuses the others' globals (test/runtimes.test.ts); with `extra`,
 * only those files are the program's roots.
 */
export async function checkRuntime(runtime: Runtime, extra?: Record<string, string>): Promise<Problem[]> {
  const probe = extra ? mirror(runtime, extra) : undefined;
  try {
    const root = probe?.root ?? ROOT;
    const reported = parseReport(await runTsgo(probe?.config ?? runtime.config, root), root);
    // A program also reads what its files import from another runtime; that runtime's program reports it.
    const own = reported.filter(
      (problem) =>
        problem.file === "" || extra?.[problem.file] !== undefined || (!extra && runtime.owns.test(problem.file)),
    );
    const at = new Set(own.map((problem) => `${problem.file}:${problem.line}:${problem.column}`));
    // A Node-only name TypeScript already refused (no Node in the program at all) is reported once.
    const nodeOnly = nodeOnlyNames(runtime, root, extra ? Object.keys(extra) : undefined).filter(
      (problem) => !at.has(`${problem.file}:${problem.line}:${problem.column}`),
    );
    return [...own, ...nodeOnly];
  } finally {
    if (probe) rmSync(probe.root, { recursive: true, force: true });
  }
}

/** Problems as a person reads them: `file:line:column - error TS1234: message`. */
export function formatProblems(problems: Problem[]): string {
  return problems
    .map((problem) =>
      problem.file === ""
        ? `error ${problem.code}: ${problem.message}`
        : `${problem.file}:${problem.line}:${problem.column} - error ${problem.code}: ${problem.message}`,
    )
    .join("\n");
}

/** A path relative to the repository (or its probe copy), with forward slashes. */
const repoPath = (file: string, root = ROOT) => path.relative(root, path.resolve(file)).split(path.sep).join("/");
