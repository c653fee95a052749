import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// One hook for loading a reply (issue 48, item 2; docs/decisions/049-one-hook-for-a-reply.md): a
// screen reads a reply through useReply (pwa/lib/use-reply.ts), which alone puts up the loading
// state. A file of the PWA that makes its own (a `{ status: "loading" }` or `{ kind: "loading" }`
// object, a `setLoading(…)` call, a `loading: true`) hand-rolls what the hook does. The files still
// doing so are listed below, each with why; a new one fails, and so does a line left for a file that
// no longer does. Types are not read: `type S = { status: "loading" } | …` describes a state, it
// makes none.

const root = new URL("..", import.meta.url);

/** The files that still make their own loading state, each with why. */
const OWN_LOADING: Record<string, string> = {
  "pwa/features/door/door-store.ts":
    "the door's zustand store, shared by its screens and ordered against check-ins on their way: its states are useReply's (ReplyState), shown by ReplyView (decision 049, The door)",
  "pwa/features/night/my-rounds.ts":
    "the guest's night: a failed read marks what is shown as the phone's copy, an answer older by the server's clock than the stream's is dropped, and the stream moves the clock with no read (decision 049, Not converted)",
};

const pwaFiles = () =>
  execSync("git ls-files 'pwa/*.ts' 'pwa/*.tsx'", { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((file) => file && !/\.test\.tsx?$/.test(file) && file !== "pwa/lib/use-reply.ts");

const isLoading = (node: ts.Node | undefined) =>
  node !== undefined && ts.isStringLiteral(node) && node.text === "loading";

/** Where `source` makes a loading state of its own, as `file:line: text`. */
function ownLoading(file: string, source: string): string[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const note = (node: ts.Node) => {
    const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
    found.push(`${file}:${line}: ${node.getText(tree).replace(/\s+/g, " ")}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)) {
      const name = node.name.text;
      if ((name === "status" || name === "kind") && isLoading(node.initializer)) note(node.parent);
      if (name === "loading" && node.initializer.kind === ts.SyntaxKind.TrueKeyword) note(node);
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && /^set\w*Loading$/.test(node.expression.text))
      note(node);
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

describe("loading a reply", () => {
  it("is useReply's: no file of the PWA makes its own loading state but those listed, each with why", () => {
    const files = pwaFiles();
    expect(files.length).toBeGreaterThan(50);
    const hits = files.flatMap((file) => ownLoading(file, readFileSync(new URL(file, root), "utf8")));
    const unlisted = hits.filter((hit) => !(hit.split(":")[0]! in OWN_LOADING));
    expect(unlisted, "read the reply through useReply (pwa/lib/use-reply.ts), or list the file with why").toEqual([]);
    const gone = Object.keys(OWN_LOADING).filter((file) => !hits.some((hit) => hit.startsWith(`${file}:`)));
    expect(gone, "listed but no longer makes its own loading state: remove the line").toEqual([]);
  });

  it("notices a loading state made by hand, and not a type or a test of one", () => {
    const source = [
      'type S = { status: "loading" } | { status: "ready"; names: string[] };',
      'const [state, setState] = useState<S>({ status: "loading" });',
      'setState({ kind: "loading" });',
      "setLoading(true);",
      "set({ loading: true });",
      'if (state.status === "loading") show();',
      'const text = "loading";',
      "setLoadingText(false);",
    ].join("\n");
    expect(ownLoading("pwa/x.ts", source)).toEqual([
      'pwa/x.ts:2: { status: "loading" }',
      'pwa/x.ts:3: { kind: "loading" }',
      "pwa/x.ts:4: setLoading(true)",
      "pwa/x.ts:5: loading: true",
    ]);
  });
});
