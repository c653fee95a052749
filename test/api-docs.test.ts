import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../api/app.ts";
import { ERROR_CODES, isErrorCode } from "../common/error-codes.ts";
import { withTestServer } from "./api-harness.ts";

// docs/api.md is the API's contract for people: it must name every call the app serves and every
// error code the app can answer. The convention this test reads (written up at the top of the doc):
// - a call is a level-3 heading holding only its method and path in one code span, with path
//   parameters in braces: ### `GET /api/admin-event/{id}/roster` (Hono's `:id` is `{id}` there);
// - each call's section has a `- **Who:**` line and a `- **Errors:**` line; the codes in the latter
//   are written `404 \`not_found\``, each after its status (anything in parentheses is prose);
// - the "## Error codes" section holds one table row per code: | `code` | status | meaning |, the
//   meaning being the text of common/error-codes.ts.
// Fenced code blocks are skipped, so the doc can show the convention without declaring a call.

const DOC = "docs/api.md";
const doc = readFileSync(new URL(`../${DOC}`, import.meta.url), "utf8");

const CALL_HEADING = /^### `([A-Z]+) (\/\S*)`$/;
const CODE_ROW = /^\| `([a-z_]+)` \| (\d{3}) \| (.+) \|$/;

/** Hono's `/api/x/:id` (or `:id{[0-9]+}`, `:id?`) as the doc writes it: `/api/x/{id}`. */
const docPath = (honoPath: string) => honoPath.replace(/:(\w+)(\{[^}]*\})?\??/g, "{$1}");

/** The doc's lines outside fenced code blocks. */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split("\n").filter((line) => {
    if (line.trimStart().startsWith("```")) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

type CallSection = { call: string; lines: string[] };

/** Each documented call with the lines of its section (up to the next heading of level 1 to 3). */
function callSections(lines: string[]): CallSection[] {
  const sections: CallSection[] = [];
  let current: CallSection | undefined;
  for (const line of lines) {
    const heading = CALL_HEADING.exec(line);
    if (heading) {
      current = { call: `${heading[1]} ${heading[2]}`, lines: [] };
      sections.push(current);
    } else if (/^#{1,3} /.test(line)) {
      current = undefined;
    } else {
      current?.lines.push(line);
    }
  }
  return sections;
}

/** The `- **Errors:**` bullet of a section, its wrapped lines joined; undefined when it has none. */
function errorsBullet(section: CallSection): string | undefined {
  const start = section.lines.findIndex((line) => line.startsWith("- **Errors:**"));
  if (start < 0) return undefined;
  const bullet = [section.lines[start] ?? ""];
  for (const line of section.lines.slice(start + 1)) {
    if (!/^ {2,}\S/.test(line)) break;
    bullet.push(line.trim());
  }
  return bullet.join(" ");
}

/** The (status, code) pairs of an Errors bullet: each backticked word after a status, outside parentheses. */
function statusedCodes(bullet: string): { status: number | undefined; code: string }[] {
  let text = bullet.replace(/^- \*\*Errors:\*\*/, "");
  // Parentheses hold prose (`eventID`, `gender`, …); innermost first, for nested ones.
  while (/\([^()]*\)/.test(text)) text = text.replace(/\([^()]*\)/g, " ");
  const found: { status: number | undefined; code: string }[] = [];
  let status: number | undefined;
  for (const token of text.matchAll(/\b(\d{3})\b|`([^`]+)`/g)) {
    if (token[1]) status = Number(token[1]);
    else if (token[2]) found.push({ status, code: token[2] });
  }
  return found;
}

/** The rows of the "## Error codes" table. */
function codeTable(lines: string[]): Map<string, { status: number; meaning: string }> {
  const start = lines.indexOf("## Error codes");
  const end = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  const rows = new Map<string, { status: number; meaning: string }>();
  for (const line of lines.slice(start + 1, end < 0 ? undefined : end)) {
    const row = CODE_ROW.exec(line);
    if (row?.[1] && row[2] && row[3]) rows.set(row[1], { status: Number(row[2]), meaning: row[3] });
  }
  return rows;
}

const lines = proseLines(doc);
const sections = callSections(lines);
const documented = sections.map((s) => s.call);
const table = codeTable(lines);

/** Every (method, path) the app serves, as the doc writes it; middleware (method ALL, `use`) left out. */
let served: string[] = [];

beforeAll(async () => {
  // The real app on a temporary database, as every API suite builds it: createApp mounts apiRoutes
  // (all of /api) and /healthz, and registers the dev-only calls whatever the providers, so its
  // routing table is the whole API.
  await withTestServer(async (server) => {
    const routes = createApp(server.deps).routes.filter((r) => r.method !== "ALL");
    served = [...new Set(routes.map((r) => `${r.method} ${docPath(r.path)}`))].sort();
  });
});

describe(`${DOC} lists every call`, () => {
  it("reads the app's routes", () => {
    // A guard against a vacuous pass: the routing table was really read.
    expect(served).toContain("GET /healthz");
    expect(served).toContain("GET /api/get-events");
    expect(served).toContain("GET /api/admin-event/{id}/roster");
  });

  it("documents every call the app serves", () => {
    const missing = served.filter((call) => !documented.includes(call));
    expect(
      missing,
      `calls the app serves with no section in ${DOC}: add a heading ### \`METHOD /path/{param}\` for each`,
    ).toEqual([]);
  });

  it("documents no call the app does not serve", () => {
    const stale = documented.filter((call) => !served.includes(call));
    expect(stale, `sections of ${DOC} for calls the app does not serve (renamed or removed?)`).toEqual([]);
  });

  it("documents each call once, saying who may call it and which errors it answers", () => {
    const twice = documented.filter((call, i) => documented.indexOf(call) !== i);
    expect(twice, `calls with two sections in ${DOC}`).toEqual([]);
    const withoutWho = sections.filter((s) => !s.lines.some((l) => l.startsWith("- **Who:**"))).map((s) => s.call);
    expect(withoutWho, "call sections without a `- **Who:**` line").toEqual([]);
    const withoutErrors = sections.filter((s) => errorsBullet(s) === undefined).map((s) => s.call);
    expect(withoutErrors, "call sections without a `- **Errors:**` line").toEqual([]);
  });
});

describe(`${DOC}'s error codes`, () => {
  it("has a row for every code of common/error-codes.ts, and for nothing else", () => {
    const missing = Object.keys(ERROR_CODES).filter((code) => !table.has(code));
    expect(missing, `codes of common/error-codes.ts missing from the "## Error codes" table of ${DOC}`).toEqual([]);
    const unknown = [...table.keys()].filter((code) => !isErrorCode(code));
    expect(unknown, `rows of the "## Error codes" table for codes common/error-codes.ts does not have`).toEqual([]);
  });

  it("gives each code the meaning common/error-codes.ts gives it", () => {
    const differing = Object.entries(ERROR_CODES)
      .filter(([code, meaning]) => table.has(code) && table.get(code)?.meaning !== meaning)
      .map(([code, meaning]) => `${code}: ${meaning}`);
    expect(differing, "rows whose meaning is not the module's text (expected text shown)").toEqual([]);
  });

  it("names only known codes in the calls' error lists, each with the status the table gives it", () => {
    const wrong: string[] = [];
    for (const section of sections) {
      const bullet = errorsBullet(section);
      if (!bullet) continue;
      for (const { status, code } of statusedCodes(bullet)) {
        const row = table.get(code);
        if (!row) wrong.push(`${section.call}: \`${code}\` is not an error code`);
        else if (status !== row.status) wrong.push(`${section.call}: \`${code}\` is ${row.status}, not ${status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
