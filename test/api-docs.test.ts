import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../api/app.ts";
import { ERROR_STATUS } from "../api/lib/openapi.ts";
import { CROSS_ORIGIN_EXEMPT } from "../api/lib/same-origin.ts";
import { ERROR_CODES, isErrorCode } from "../common/error-codes.ts";
import { withTestServer } from "./api-harness.ts";
import { proseLines } from "./markdown.ts";

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

/** A call as the OpenAPI document declares it: its statuses, and its error codes by status. */
type Declared = { call: string; statuses: number[]; codes: { status: number; code: string }[] };

/** What an error reply's schema names as its `code`, following $refs into the components. */
function codesOf(schema: unknown, components: Record<string, unknown>): string[] {
  if (!schema || typeof schema !== "object") return [];
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === "string") return codesOf(components[node.$ref.split("/").pop() ?? ""], components);
  if (Array.isArray(node.anyOf)) return node.anyOf.flatMap((s) => codesOf(s, components));
  if (Array.isArray(node.oneOf)) return node.oneOf.flatMap((s) => codesOf(s, components));
  const code = (node.properties as Record<string, { enum?: unknown[]; const?: unknown }> | undefined)?.code;
  if (!code) return [];
  return (code.enum ?? (code.const === undefined ? [] : [code.const])).map(String);
}

/** Every call of an OpenAPI document, with its statuses and error codes. */
function declaredCalls(document: {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components?: { schemas?: Record<string, unknown> };
}): Declared[] {
  const components = document.components?.schemas ?? {};
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const statuses = Object.keys(operation.responses).map(Number).sort();
      const codes = Object.entries(operation.responses).flatMap(([status, response]) =>
        Number(status) >= 400
          ? codesOf(response.content?.["application/json"]?.schema, components).map((code) => ({
              status: Number(status),
              code,
            }))
          : [],
      );
      return { call: `${method.toUpperCase()} ${path}`, statuses, codes };
    }),
  );
}

/**
 * The codes docs/api.md's "Errors" convention says every call may answer without listing them:
 * 500 `internal_error`; and with a body (every POST here), 400 `invalid_request`, 413 `too_large`
 * and 403 `cross_origin` (but for the calls exempt from the cross-site check).
 */
function commonCodes(call: string): { status: number; code: string }[] {
  const common = [{ status: 500, code: "internal_error" }];
  if (call.startsWith("POST "))
    common.push({ status: 400, code: "invalid_request" }, { status: 413, code: "too_large" });
  // Stripe's and Twilio's webhooks (server to server, proven by their signatures) and the one-click
  // unsubscribe (mail clients post it from anywhere) are exempt from the cross-site check.
  if (call.startsWith("POST ") && !CROSS_ORIGIN_EXEMPT.includes(call.slice("POST ".length)))
    common.push({ status: 403, code: "cross_origin" });
  return common;
}

/** A call as docs/api.md describes it: the statuses of its `- **NNN:**` bullets and its Errors line. */
function describedCall(section: CallSection): Declared {
  const listed = statusedCodes(errorsBullet(section) ?? "").flatMap(({ status, code }) =>
    status === undefined ? [] : [{ status, code }],
  );
  const codes = [...listed, ...commonCodes(section.call)];
  const successes = section.lines.flatMap((line) => {
    const bullet = /^- \*\*(\d{3}):\*\*/.exec(line);
    return bullet ? [Number(bullet[1])] : [];
  });
  return { call: section.call, statuses: [...new Set([...successes, ...codes.map((c) => c.status)])].sort(), codes };
}

const key = (c: { status: number; code: string }) => `${c.status} ${c.code}`;

/**
 * How the document and the doc differ: a call in one and not the other, a status one has and the
 * other lacks, an error code one lists and the other does not. Empty when they agree.
 */
function differences(declared: Declared[], described: Declared[]): string[] {
  const problems: string[] = [];
  const byCall = new Map(described.map((d) => [d.call, d]));
  for (const call of declared) {
    const prose = byCall.get(call.call);
    if (!prose) {
      problems.push(`${call.call}: declared in /api/openapi.json, no section in ${DOC}`);
      continue;
    }
    const statuses = (d: Declared) => d.statuses.join(", ");
    if (statuses(call) !== statuses(prose)) {
      problems.push(`${call.call}: statuses ${statuses(call)} declared, ${statuses(prose)} in ${DOC}`);
    }
    const inDoc = new Set(prose.codes.map(key));
    const inDocument = new Set(call.codes.map(key));
    for (const code of inDocument) if (!inDoc.has(code)) problems.push(`${call.call}: ${code} declared, not in ${DOC}`);
    for (const code of inDoc) if (!inDocument.has(code)) problems.push(`${call.call}: ${code} in ${DOC}, not declared`);
  }
  const declaredCallsSet = new Set(declared.map((d) => d.call));
  for (const prose of described) {
    if (!declaredCallsSet.has(prose.call)) problems.push(`${prose.call}: a section in ${DOC}, not declared`);
  }
  return problems;
}

/** Every (method, path) the app serves, as the doc writes it; middleware (method ALL, `use`) left out. */
let served: string[] = [];
let declared: Declared[] = [];

beforeAll(async () => {
  // The real app on a temporary database, as every API suite builds it: createApp mounts apiRoutes
  // (all of /api), /healthz and the document, and registers the dev-only calls whatever the
  // providers, so its routing table is the whole API. The document is fetched as a client would.
  await withTestServer(async (server) => {
    const routes = createApp(server.deps).routes.filter((r) => r.method !== "ALL");
    served = [...new Set(routes.map((r) => `${r.method} ${docPath(r.path)}`))].sort();
    const reply = await fetch(`${server.url}/api/openapi.json`);
    expect(reply.status).toBe(200);
    declared = declaredCalls(await reply.json());
  });
});

describe(`${DOC} and /api/openapi.json describe the same calls`, () => {
  it("reads the app's routes and its document", () => {
    // A guard against a vacuous pass: the routing table and the document were really read.
    for (const call of ["GET /healthz", "GET /api/get-events", "GET /api/admin-event/{id}/roster"]) {
      expect(served).toContain(call);
      expect(declared.map((d) => d.call)).toContain(call);
    }
  });

  it("declares every call the app serves in the document, with a reply and its errors", () => {
    const names = declared.map((d) => d.call);
    expect(
      served.filter((call) => !names.includes(call)),
      "calls the app serves that /api/openapi.json does not declare (a route not made with createRoute?)",
    ).toEqual([]);
    expect(names.filter((call) => !served.includes(call))).toEqual([]);
    const without = declared
      .filter((d) => !d.statuses.some((s) => s < 400) || !d.codes.some((c) => c.code === "internal_error"))
      .map((d) => d.call);
    expect(without, "calls declared without a success reply or without their errors").toEqual([]);
  });

  it("gives every call the same statuses and error codes in both", () => {
    expect(differences(declared, sections.map(describedCall))).toEqual([]);
  });

  it("notices a call missing from either, and a code one of them lacks", () => {
    const described = sections.map(describedCall);
    const [first, ...rest] = declared;
    if (!first) throw new Error("the document declares no call");
    expect(differences(rest, described)).toContain(`${first.call}: a section in ${DOC}, not declared`);
    const missingSection = described.filter((d) => d.call !== first.call);
    expect(differences(declared, missingSection)).toContain(
      `${first.call}: declared in /api/openapi.json, no section in ${DOC}`,
    );
    const withExtraCode = declared.map((d) =>
      d.call === first.call ? { ...d, codes: [...d.codes, { status: 409, code: "sold_out" }] } : d,
    );
    expect(differences(withExtraCode, described).join("\n")).toMatch(/409 sold_out declared, not in/);
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
  it("gives each code the status the server answers it with", () => {
    const differing = Object.entries(ERROR_STATUS)
      .filter(([code, status]) => table.get(code)?.status !== status)
      .map(([code, status]) => `${code}: ${status}`);
    expect(differing, "codes whose status in the table is not api/lib/openapi.ts's ERROR_STATUS").toEqual([]);
  });

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
