import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The PWA reads every reply through its route's declared types (hc<AppType>, pwa/lib/api-reply.ts;
// docs/decisions/026-contract-as-schemas.md): `reply.data` is the call's success body or exactly
// the error bodies it declares. A cast on a reply would quietly undo that, so none is allowed.

const root = new URL("..", import.meta.url);

const pwaFiles = () =>
  execSync("git ls-files 'pwa/*.ts' 'pwa/*.tsx'", { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((file) => file && !/\.test\.tsx?$/.test(file));

/** The `as` casts (and `<T>x` assertions) of a source whose operand reads a reply or response. */
function replyCasts(file: string, source: string): string[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.getText(tree) !== "const") {
      const operand = node.expression.getText(tree);
      if (/\b(reply|response|res)\b|\.json\(\)|\bsend\(|\$get\(|\$post\(/.test(operand)) {
        const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
        found.push(`${file}:${line}: ${node.getText(tree).replace(/\s+/g, " ")}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

describe("the PWA's replies", () => {
  it("are never cast: their types come from the routes' declarations", () => {
    const files = pwaFiles();
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((file) => replyCasts(file, readFileSync(new URL(file, root), "utf8")))).toEqual([]);
  });

  it("notices a cast of a reply", () => {
    const source = `const page = reply.data as ActivityEntry[];\nconst list = (await response.json()) as X[];\nconst n = 1 as const;`;
    expect(replyCasts("pwa/x.ts", source)).toEqual([
      "pwa/x.ts:1: reply.data as ActivityEntry[]",
      "pwa/x.ts:2: (await response.json()) as X[]",
    ]);
  });
});
