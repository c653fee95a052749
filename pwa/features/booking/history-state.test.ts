import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Issue 48, item 1 (docs/decisions/046-booking-flow-in-one-store.md): no page hands data to another
// through the history entry. An address names what a page shows and a store keeps what was typed,
// so Back, Forward, a reload and a new tab all find it; history state is lost in a new tab and was
// read back with casts. This reads every source file of the PWA and names each place that writes
// or reads it: `navigate(to, { state })`, `<Link state>` / `<Navigate state>`, `location.state`.

const pwa = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** react-router's elements that take a `state` (another component's `state` prop is its own). */
const ROUTER_ELEMENTS = new Set(["Link", "NavLink", "Navigate"]);

const hasState = (node: ts.Node | undefined) =>
  node !== undefined &&
  ts.isObjectLiteralExpression(node) &&
  node.properties.some(
    (p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name.getText() === "state",
  );

/** `file:line what` for each place the history entry carries data in `text` (the file at `path`). */
function historyState(path: string, text = readFileSync(path, "utf8")): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${relative(pwa, path)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`);
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      if (/(^|\.)navigate$/.test(callee) && hasState(node.arguments[1])) at(node, "navigate(…, { state })");
    }
    if (ts.isJsxAttribute(node) && node.name.getText(source) === "state") {
      const element = node.parent.parent;
      if (ROUTER_ELEMENTS.has(element.tagName.getText(source))) at(node, `<${element.tagName.getText(source)} state>`);
    }
    if (ts.isPropertyAccessExpression(node) && node.name.text === "state") {
      const owner = node.expression.getText(source);
      if (/(^|\.)location$|useLocation\(\)$/.test(owner)) at(node, `${owner}.state`);
    }
    if (ts.isObjectBindingPattern(node) && ts.isVariableDeclaration(node.parent)) {
      const init = node.parent.initializer?.getText(source) ?? "";
      const names = node.elements.map((e) => (e.propertyName ?? e.name).getText(source));
      if (/useLocation\(\)|(^|\.)location$/.test(init) && names.includes("state")) at(node, "{ state } = location");
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("history state", () => {
  it("carries no data between the PWA's pages: no navigate state, no <Link state>, no location.state", () => {
    const files = sourceFiles(pwa);
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((file) => historyState(file))).toEqual([]);
  });

  it("finds each way of carrying it, so the rule above cannot pass by missing one", () => {
    const sample = [
      "navigate(paths.confirmation, { state });",
      'navigate("/x", { replace: true, state: { event } });',
      "const event = useLocation().state;",
      "const back = location.state as Back;",
      "const { state } = useLocation();",
      '<Link to="/x" state={{ event }} />;',
      // Not history state: a store's own field, a component's own prop, and a navigate without any.
      "<HowLongWeKeepIt state={facts} />;",
      "const held = useBookingStore((s) => s.state);",
      "navigate(paths.home, { replace: true });",
    ].join("\n");
    expect(historyState(join(pwa, "sample.tsx"), sample).map((line) => line.replace(/^sample\.tsx:\d+ /, ""))).toEqual([
      "navigate(…, { state })",
      "navigate(…, { state })",
      "useLocation().state",
      "location.state",
      "{ state } = location",
      "<Link state>",
    ]);
  });
});
