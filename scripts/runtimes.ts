import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
   * API's types; a test imports what it tests), and the program of that code's own runtime checks it:
   * checking it again here took a third of the four programs' time and could find nothing new.
   */
  owns: RegExp;
};

export const RUNTIMES: Runtime[] = [
  { name: "server", config: "tsconfig.server.json", noNode: [], owns: /^(?!node_modules\/)/ },
  { name: "browser", config: "tsconfig.browser.json", noNode: ["pwa", "common"], owns: /^(pwa|common)\// },
  { name: "sw", config: "tsconfig.sw.json", noNode: ["pwa", "common"], owns: /^(pwa|common)\// },
  { name: "test", config: "tsconfig.test.json", noNode: [], owns: /^(test|e2e)\/|\.test\.tsx?$/ },
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

/** Names in the runtime's own files that only Node declares, as diagnostics. */
function nodeOnlyNames(program: ts.Program, runtime: Runtime): ts.Diagnostic[] {
  const checker = program.getTypeChecker();
  const folders = runtime.noNode.map((folder) => path.join(ROOT, folder) + path.sep);
  const found: ts.Diagnostic[] = [];
  for (const file of program.getSourceFiles()) {
    if (!folders.some((folder) => path.resolve(file.fileName).startsWith(folder))) continue;
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
        found.push({
          category: ts.DiagnosticCategory.Error,
          code: 0,
          file,
          start: node.getStart(file),
          length: node.getWidth(file),
          messageText: `'${node.text}' exists only in Node: the ${runtime.name} runtime (${runtime.config}) does not have it.`,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/**
 * The server's code as the other programs may read it: its declarations (`.d.ts`), which the server's
 * program writes while it checks that code (`emitTo`), and the browser's, the service worker's and the
 * tests' programs read in place of its sources (`readFrom`). Those programs read api/ for its types
 * only (the typed client's AppType, what a test calls), and from the sources TypeScript had to infer
 * each route group's type again by checking its handlers: about 12 s of each program's time on the
 * two-core machine (docs/decisions/062-ci-time-fifth-pass.md). A program's own files are never
 * replaced, and a file without a declaration is read from its source.
 */
export type Declarations = { emitTo?: string; readFrom?: string };

/** The code whose declarations the server's program writes and the others read: api/ and db/, not tests. */
const DECLARED = /^(api|db)\/(?!.*\.test\.ts$).*(?<!\.d)\.ts$/;

/**
 * A declaration as the server's program wrote it, for a program that reads it. The server's program
 * has Node's globals and not the DOM's, so where the sources name the global `File` (zod's file
 * fields) the declaration names Node's class (`import("buffer").File`); the global is what the
 * source means, the DOM's `File` in a program that has the DOM.
 */
const readDeclaration = (dts: string) => readFileSync(dts, "utf8").replaceAll('import("buffer").File', "File");

/**
 * Type-checks one runtime. `extra` adds files (path relative to the repo → text) that exist only in
 * memory, for the test that proves each runtime refuses the others' globals (test/runtimes.test.ts);
 * with `extra`, only those files are the program's roots. `declarations` says where the server's
 * program writes the declarations of api/ and db/, or where another program reads them (above).
 */
const parsed = new Map<string, ts.SourceFile>();

export function checkRuntime(
  runtime: Runtime,
  extra?: Record<string, string>,
  declarations: Declarations = {},
): ts.Diagnostic[] {
  const config = readConfig(runtime);
  const virtual = new Map(Object.entries(extra ?? {}).map(([file, text]) => [path.join(ROOT, file), text]));
  const host = ts.createCompilerHost(config.options);
  const { getSourceFile, fileExists, readFile } = host;
  const { readFrom, emitTo } = declarations;
  /** The declaration this program reads in place of `file`'s source, when there is one. */
  const declarationFor = (file: string) => {
    const rel = repoPath(file);
    if (!readFrom || !DECLARED.test(rel) || runtime.owns.test(rel)) return undefined;
    const dts = path.join(readFrom, rel.replace(/\.ts$/, ".d.ts"));
    return existsSync(dts) ? dts : undefined;
  };
  host.fileExists = (file) => virtual.has(path.resolve(file)) || fileExists(file) || declarationFor(file) !== undefined;
  host.readFile = (file) => virtual.get(path.resolve(file)) ?? readFile(file);
  host.getSourceFile = (file, language, ...rest) => {
    const dts = declarationFor(file);
    const text = virtual.get(path.resolve(file)) ?? (dts === undefined ? undefined : readDeclaration(dts));
    if (text !== undefined) return ts.createSourceFile(file, text, language, true);
    // The four programs share one base config, so a file parsed for one is the same for the next.
    const key = `${file}\0${JSON.stringify(language)}`;
    const cached = parsed.get(key);
    if (cached) return cached;
    const source = getSourceFile(file, language, ...rest);
    if (source) parsed.set(key, source);
    return source;
  };
  const program = ts.createProgram({
    rootNames: extra ? [...virtual.keys()] : config.fileNames,
    // Declarations are written only by a program that checks that code: emitting them takes about
    // 2 s of the server's 23 s, and changes none of its diagnostics.
    options: emitTo
      ? { ...config.options, noEmit: false, declaration: true, emitDeclarationOnly: true }
      : config.options,
    host,
    configFileParsingDiagnostics: config.errors,
  });
  if (emitTo && !writeDeclarations(program, emitTo)) {
    console.warn(
      `${runtime.name}: declarations not written (one could not be written whole); the others read the sources`,
    );
  }
  // What getPreEmitDiagnostics gives, for the runtime's own files only (and every in-memory file).
  const owned = program
    .getSourceFiles()
    .filter((file) => virtual.has(path.resolve(file.fileName)) || runtime.owns.test(repoPath(file.fileName)));
  return [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...owned.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
    ...nodeOnlyNames(program, runtime),
  ];
}

/**
 * Writes the declarations of the program's api/ and db/ files under `dir`, as `<dir>/api/….d.ts`. A
 * declaration TypeScript cannot write whole (a type it cannot name) leaves no declarations at all, so
 * the other programs read every source as before.
 */
function writeDeclarations(program: ts.Program, dir: string): boolean {
  const written = new Map<string, string>();
  let complete = true;
  for (const file of program.getSourceFiles()) {
    if (!DECLARED.test(repoPath(file.fileName))) continue;
    const result = program.emit(file, (name, text) => written.set(name, text), undefined, true, undefined);
    if (result.emitSkipped || result.diagnostics.length > 0) complete = false;
  }
  if (!complete) return false;
  for (const [name, text] of written) {
    const target = path.join(dir, path.relative(ROOT, name));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return true;
}

/** A path relative to the repository, with forward slashes. */
const repoPath = (file: string) => path.relative(ROOT, path.resolve(file)).split(path.sep).join("/");

export const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (file) => file,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => "\n",
};
