import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { RUNTIMES, readConfig } from "../scripts/runtimes.ts";
import { suiteTestServer } from "./api-harness.ts";

// One shape per reply (issue 47, part 3; docs/decisions/044-one-name-per-field.md): a reply is
// declared once, as the zod schema its route answers with, and its TypeScript type is read from it
// (`z.output<typeof schema>`). A type written out beside the schema, "field for field", is a second
// copy that drifts; this fails when one comes back.

const root = new URL("..", import.meta.url);
const rootDir = path.resolve(root.pathname);

const sourceFiles = () =>
  execSync("git ls-files 'api/*.ts' 'common/*.ts' 'db/*.ts'", { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((file) => file && !/\.test\.ts$/.test(file));

type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema } & Record<string, unknown>;

/**
 * The fields (three or more; an optional one marked `?`) of each reply of the document: the object
 * a call answers, or each item of the list it answers, or each of its alternatives, with where.
 */
function replyObjects(document: {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>
  >;
  components?: { schemas?: Record<string, Schema> };
}): Map<string, string> {
  const found = new Map<string, string>();
  const reply = (schema: Schema | undefined, where: string, depth = 0): void => {
    if (!schema || depth > 5) return;
    if (typeof schema.$ref === "string") {
      const name = schema.$ref.split("/").pop() ?? "";
      reply(document.components?.schemas?.[name], name, depth + 1);
      return;
    }
    if (schema.properties) {
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const keys = Object.keys(schema.properties)
        .map((key) => (required.has(key) ? key : `${key}?`))
        .sort();
      if (keys.length >= 3 && !found.has(keys.join(","))) found.set(keys.join(","), where);
    }
    if (schema.items) reply(schema.items, where, depth + 1);
    for (const key of ["anyOf", "oneOf", "allOf"]) {
      const options = schema[key];
      if (Array.isArray(options)) for (const option of options) reply(option as Schema, where, depth + 1);
    }
  };
  for (const [route, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!status.startsWith("2")) continue;
        for (const media of Object.values(response.content ?? {})) reply(media.schema, `${method} ${route}`);
      }
    }
  }
  return found;
}

/** Whether a type is written out by hand: it holds an object literal type (`{ a: …; b: … }`). */
function writtenOut(node: ts.Node): boolean {
  if (ts.isTypeLiteralNode(node)) return true;
  return ts.forEachChild(node, (child) => (writtenOut(child) ? true : undefined)) ?? false;
}

/** Every exported type of api/, common/ and db/ written out by hand, with its fields (optional ones marked `?`). */
function handWrittenTypes(): { name: string; where: string; keys: string }[] {
  const server = RUNTIMES.find((r) => r.name === "server");
  if (!server) throw new Error("no server runtime");
  const config = readConfig(server);
  const files = sourceFiles().map((file) => path.join(rootDir, file));
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const types: { name: string; where: string; keys: string }[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    for (const statement of source.statements) {
      const exported = ts.canHaveModifiers(statement)
        ? ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
        : false;
      if (!exported) continue;
      const declaration = ts.isTypeAliasDeclaration(statement)
        ? statement.type
        : ts.isInterfaceDeclaration(statement)
          ? statement
          : undefined;
      if (!declaration || !(ts.isInterfaceDeclaration(statement) || writtenOut(declaration))) continue;
      const name = (statement as ts.TypeAliasDeclaration | ts.InterfaceDeclaration).name;
      const type = checker.getTypeAtLocation(name);
      if (type.isUnion()) continue;
      const keys = checker
        .getPropertiesOfType(type)
        .map((p) => (p.flags & ts.SymbolFlags.Optional ? `${p.name}?` : p.name))
        .sort();
      if (keys.length < 3) continue;
      const line = source.getLineAndCharacterOfPosition(statement.getStart(source)).line + 1;
      types.push({ name: name.text, where: `${path.relative(rootDir, file)}:${line}`, keys: keys.join(",") });
    }
  }
  return types;
}

/**
 * Replies whose type is still written out beside their schema, each with where its schema is: none
 * now. The list only shrinks: an entry no longer needed fails the test.
 */
const NOT_YET: Record<string, string> = {};

describe("reply types", () => {
  const server = suiteTestServer();

  it("no code says a type is kept field for field beside its schema", () => {
    const copies = sourceFiles().filter((file) => /field for field/i.test(readFileSync(new URL(file, root), "utf8")));
    expect(copies).toEqual([]);
  });

  it("no exported type is written out with exactly a reply's fields: it is read from the reply's schema", {
    timeout: 240_000,
  }, async () => {
    const reply = await fetch(`${server.url}/api/openapi.json`);
    expect(reply.status).toBe(200);
    const replies = replyObjects(await reply.json());
    // Sanity: the document is read (events, tickets, the door and the organiser's replies are there).
    expect(replies.size).toBeGreaterThan(20);
    const types = handWrittenTypes();
    expect(types.length).toBeGreaterThan(20);
    const copies = types.filter((t) => replies.has(t.keys));
    expect(
      copies
        .filter((t) => !(t.name in NOT_YET))
        .map((t) => `${t.where} ${t.name} repeats the reply of ${replies.get(t.keys)}`),
    ).toEqual([]);
    // The list of those still to move only shrinks.
    expect(Object.keys(NOT_YET).filter((name) => !copies.some((t) => t.name === name))).toEqual([]);
  });
});
