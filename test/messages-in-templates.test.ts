import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Every message's words live in api/messaging/templates/ (docs/guide/messages.md): a room says which
// message and with what data, and never writes a sentence that goes to a guest. Two checks keep it so.
// 1. What reaches the outbox: the body, subject, text and html handed to enqueueSms, enqueueEmail,
//    enqueueMarketingSms or textPaidAttendees are followed through the names they use (local
//    functions and variables, and functions imported from other files of api/ or common/) until they
//    reach a template; any words met on the way fail the test. A room that moves its sentence into a
//    helper, or into a helper in another file, is still caught.
// 2. The sentences of today's messages: each must stand in a template, and in no other file's string.

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TEMPLATES = join(root, "api", "messaging", "templates");
const inTemplates = (file: string) => file.startsWith(`${TEMPLATES}/`);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    parsed.set(file, source);
  }
  return source;
}

const rel = (file: string) => relative(root, file);
const lineOf = (node: ts.Node) => node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1;

/** The words of a string or template literal: its text with each `${…}` as `…`. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join("…");
  return null;
}

/**
 * Three words or more: a sentence's piece, not a key (`cancel:`), a label (a document's title, **Tax
 * invoice**, is the document's name and the PDF's heading), a unit or a separator.
 */
const WORDS = /[A-Za-z]+['’]?[A-Za-z]*[ ,:;!?]+[A-Za-z]+['’]?[A-Za-z]*[ ,:;!?]+[A-Za-z]{2,}/;

/** What holds no message's words, nor leads to any: SQL, an error thrown or built, a log line. */
function isNotMessage(node: ts.Node): boolean {
  if (ts.isTaggedTemplateExpression(node) || ts.isThrowStatement(node)) return true;
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
    const callee = node.expression.getText();
    // Error helpers (Conflict, NotFound, new Error) and the logger.
    return /^[A-Z]\w*$/.test(callee.split(".").at(-1) ?? "") || /(^|\.)log$/.test(callee);
  }
  return false;
}

const functionLike = (node: ts.Node | undefined): node is ts.Node =>
  !!node && (ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node));

type Declarations = { values: Map<string, ts.Node[]>; members: Map<string, ts.Node[]>; imports: Map<string, string> };
const declared = new Map<string, Declarations>();

/** What a file declares by name (scopes ignored: a name is looked up in the whole file), and imports. */
function declarationsOf(file: string): Declarations {
  const known = declared.get(file);
  if (known) return known;
  const found: Declarations = { values: new Map(), members: new Map(), imports: new Map() };
  const add = (map: Map<string, ts.Node[]>, name: string, node: ts.Node) =>
    map.set(name, [...(map.get(name) ?? []), node]);
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) && node.name) add(found.values, node.name.text, node);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      add(found.values, node.name.text, node.initializer);
    }
    if (ts.isPropertyAssignment(node) && functionLike(node.initializer)) {
      add(found.members, node.name.getText(), node.initializer);
    }
    if (ts.isMethodDeclaration(node)) add(found.members, node.name.getText(), node);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const specifier = node.moduleSpecifier.text;
      const target = specifier.startsWith(".") ? resolve(dirname(file), specifier) : null;
      const bindings = node.importClause?.namedBindings;
      if (target && bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          found.imports.set(element.name.text, `${target}#${(element.propertyName ?? element.name).text}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  declared.set(file, found);
  return found;
}

/** Where an imported name is declared: its file, following `export { x } from` re-exports. */
function exportedDeclarations(
  file: string,
  name: string,
  seen = new Set<string>(),
): { file: string; nodes: ts.Node[] } | null {
  if (!existsSync(file) || seen.has(`${file}#${name}`)) return null;
  seen.add(`${file}#${name}`);
  const nodes = declarationsOf(file).values.get(name);
  if (nodes) return { file, nodes };
  for (const statement of parse(file).statements) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
    const exported = statement.exportClause;
    if (exported && ts.isNamedExports(exported) && exported.elements.some((e) => e.name.text === name)) {
      const target = resolve(dirname(file), (statement.moduleSpecifier as ts.StringLiteral).text);
      if (inTemplates(target)) return { file: target, nodes: [] };
      const original = exported.elements.find((e) => e.name.text === name)!;
      return exportedDeclarations(target, (original.propertyName ?? original.name).text, seen);
    }
  }
  return null;
}

type Finding = { file: string; line: number; words: string; via: string };

/**
 * The words met in `node` and in whatever it names, up to the templates. `via` says how the walk got
 * there, so a failure names the room, the line and the message.
 */
function wordsReached(file: string, node: ts.Node, via: string, seen: Set<ts.Node>, out: Finding[]) {
  if (inTemplates(file) || seen.has(node)) return;
  seen.add(node);
  const decls = declarationsOf(file);
  const follow = (targets: ts.Node[] | undefined, name: string) => {
    for (const target of targets ?? []) wordsReached(file, target, `${via} → ${name}`, seen, out);
  };
  const visit = (child: ts.Node) => {
    if (isNotMessage(child)) return;
    const text = literalText(child);
    if (text !== null && WORDS.test(text)) {
      out.push({ file: rel(file), line: lineOf(child), words: text, via });
    }
    const isKey =
      (ts.isPropertyAccessExpression(child.parent) || ts.isPropertyAssignment(child.parent)) &&
      child.parent.name === child;
    if (ts.isIdentifier(child) && !isKey) {
      const name = child.text;
      follow(decls.values.get(name), name);
      const imported = decls.imports.get(name);
      if (imported) {
        const [target, exportedName] = imported.split("#") as [string, string];
        const candidates = [target, `${target}.ts`, join(target, "index.ts")];
        const path = candidates.find((c) => c.endsWith(".ts") && existsSync(c));
        const found = path ? exportedDeclarations(path, exportedName) : null;
        for (const n of found?.nodes ?? [])
          wordsReached(found!.file, n, `${via} → ${rel(found!.file)}:${name}`, seen, out);
      }
    }
    // `step.message(…)`: a function kept as an object's member in the same file.
    if (ts.isPropertyAccessExpression(child)) follow(decls.members.get(child.name.text), child.name.text);
    ts.forEachChild(child, visit);
  };
  visit(node);
}

/** The outbox's doors, and the parts of what goes through them that a person reads. */
const SENDS = /^(enqueueSms|enqueueMarketingSms|enqueueEmail|textPaidAttendees)$/;
const READ = new Set(["body", "subject", "text", "html", "content", "message"]);

function messageParts(argument: ts.Node): ts.Node[] {
  if (!ts.isObjectLiteralExpression(argument)) return [];
  return argument.properties.flatMap((property) => {
    if (ts.isSpreadAssignment(property)) return [property.expression];
    if (ts.isShorthandPropertyAssignment(property) && READ.has(property.name.text)) return [property.name];
    if (!ts.isPropertyAssignment(property)) return [];
    if (ts.isObjectLiteralExpression(property.initializer)) return messageParts(property.initializer);
    return READ.has(property.name.getText()) ? [property.initializer] : [];
  });
}

function inlineMessages(): Finding[] {
  const findings: Finding[] = [];
  for (const file of sourceFiles(join(root, "api"))) {
    if (inTemplates(file)) continue;
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression.getText().split(".").at(-1) ?? "";
        if (SENDS.test(callee)) {
          for (const argument of node.arguments) {
            for (const part of messageParts(argument)) {
              wordsReached(file, part, `${rel(file)}:${lineOf(node)} ${callee}`, new Set(), findings);
            }
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(parse(file));
  }
  return findings;
}

/** A sentence from each message sent today, as its template words it. */
const SENTENCES = [
  // The ticket: its text and its email.
  "Your ticket code is",
  "Your ticket, with the QR to show at the door:",
  "Show this QR code, or say your ticket code, at the door.",
  "Open your ticket",
  // Reminders.
  "Your ticket:",
  "A reminder:",
  // Refunds and cancelling one's own booking.
  "is being refunded to your card;",
  "Under the event's cancellation policy no refund is due now.",
  "The last seat went while you were paying, so ",
  "went while you were paying, so your payment is being refunded.",
  "Your ticket is no longer valid.",
  // A cancelled night.
  "has been cancelled. ",
  // The waitlist.
  "has been cancelled, so the waitlist is closed. Sorry!",
  "It is kept for you until",
  "is full tonight, so your place on the waitlist has closed.",
  // The night's texts.
  "has started! Tap to like or pass on the people you meet tonight:",
  "Rate the people you met by",
  "Sorry we missed you at",
  // Results, and the reminder to rate.
  "No mutual match this time, but thank you for coming",
  "rate the people you met before your matches arrive at",
  "See my results",
  // The email-consent confirmation and an announcement's email.
  "If that was you, confirm below.",
  "Yes, email me about future events",
];

function literalsOutsideTemplates(): { file: string; line: number; text: string }[] {
  const found: { file: string; line: number; text: string }[] = [];
  for (const file of sourceFiles(join(root, "api"))) {
    if (inTemplates(file)) continue;
    const visit = (node: ts.Node) => {
      const text = literalText(node);
      if (text !== null) found.push({ file: rel(file), line: lineOf(node), text });
      ts.forEachChild(node, visit);
    };
    visit(parse(file));
  }
  return found;
}

describe("every message's words live in api/messaging/templates/", () => {
  it("puts no words into the outbox outside the templates", () => {
    // One line per sentence found, with the first way the walk reached it.
    const findings = new Map<string, string>();
    for (const f of inlineMessages()) {
      const at = `${f.file}:${f.line} "${f.words}"`;
      if (!findings.has(at)) findings.set(at, `${at} (from ${f.via})`);
    }
    expect([...findings.values()]).toEqual([]);
  });

  it("keeps each of today's sentences in a template and in no other file", () => {
    const templateText = existsSync(TEMPLATES)
      ? sourceFiles(TEMPLATES)
          .map((file) => readFileSync(file, "utf8"))
          .join("\n")
      : "";
    const literals = literalsOutsideTemplates();
    const inline = SENTENCES.flatMap((sentence) =>
      literals
        .filter((literal) => literal.text.includes(sentence))
        .map((literal) => `${literal.file}:${literal.line} "${sentence}"`),
    );
    const missing = SENTENCES.filter((sentence) => !templateText.includes(sentence));
    expect({ inline, missing }).toEqual({ inline: [], missing: [] });
  });
});
