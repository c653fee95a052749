import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../api/app.ts";
import { ERROR_STATUS } from "../api/lib/openapi.ts";
import { CROSS_ORIGIN_EXEMPT } from "../api/lib/same-origin.ts";
import { ERROR_CODES, isErrorCode } from "../common/error-codes.ts";
import { withTestServer } from "./api-harness.ts";
import { proseLines } from "./markdown.ts";

// The generated reference is the reference (issue 47, part 2): each operation of /api/openapi.json
// carries its summary, who may call it (its description's `**Who:**`) and why it refuses (each error
// status's description names its codes, and adds the route's own reason after `Here:`). docs/api.md
// is the overview no schema holds, held to the document here. The conventions this test reads:
// - a call is named in one code span holding its method and path, path parameters in braces:
//   `GET /api/admin-event/{id}/roster` (Hono's `:id` is `{id}` there); every call the overview names
//   must be declared;
// - the "## Calls by room" section holds one bullet per room, `- **room**: `GET /x` · `POST /y``,
//   listing every operation of the document once, under the room its `tags` give it;
// - the "## Error codes" section holds one table row per code: | `code` | status | meaning |, the
//   meaning being the text of common/error-codes.ts.
// Fenced code blocks are skipped, so the doc can show the convention without naming a call.

const DOC = "docs/api.md";
const doc = readFileSync(new URL(`../${DOC}`, import.meta.url), "utf8");

const CALL_SPAN = /`([A-Z]+) (\/[^`\s]*)`/g;
const CODE_ROW = /^\| `([a-z_]+)` \| (\d{3}) \| (.+) \|$/;
const INDEX_HEADING = "## Calls by room";
const MAX_LINES = 400;

/** Hono's `/api/x/:id` (or `:id{[0-9]+}`, `:id?`) as the doc writes it: `/api/x/{id}`. */
const docPath = (honoPath: string) => honoPath.replace(/:(\w+)(\{[^}]*\})?\??/g, "{$1}");

/** The lines of a level-2 section, up to the next level-1 or level-2 heading. */
function section(lines: string[], heading: string): string[] {
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const end = lines.findIndex((line, i) => i > start && /^#{1,2} /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Every call the overview names, in the order it names them (repeats kept). */
function namedCalls(lines: string[]): string[] {
  return lines.flatMap((line) => [...line.matchAll(CALL_SPAN)].map((m) => `${m[1]} ${m[2]}`));
}

type Indexed = { call: string; room: string };

/** The index: each `- **room**:` bullet, its wrapped lines joined, and the calls it lists. */
function callIndex(lines: string[]): Indexed[] {
  const bullets: { room: string; text: string }[] = [];
  for (const line of section(lines, INDEX_HEADING)) {
    const bullet = /^- \*\*([a-z]+)\*\*:(.*)$/.exec(line);
    if (bullet?.[1]) bullets.push({ room: bullet[1], text: bullet[2] ?? "" });
    else if (/^ {2,}\S/.test(line) && bullets.length > 0) {
      const last = bullets[bullets.length - 1];
      if (last) last.text += ` ${line.trim()}`;
    }
  }
  return bullets.flatMap(({ room, text }) => namedCalls([text]).map((call) => ({ call, room })));
}

/** The rows of the "## Error codes" table. */
function codeTable(lines: string[]): Map<string, { status: number; meaning: string }> {
  const rows = new Map<string, { status: number; meaning: string }>();
  for (const line of section(lines, "## Error codes")) {
    const row = CODE_ROW.exec(line);
    if (row?.[1] && row[2] && row[3]) rows.set(row[1], { status: Number(row[2]), meaning: row[3] });
  }
  return rows;
}

const lines = proseLines(doc);
const index = callIndex(lines);
const named = namedCalls(lines);
const table = codeTable(lines);

/** One error status of an operation: the codes its schema answers, and its description. */
type Refusal = { status: number; codes: string[]; description: string };

/** A call as the OpenAPI document declares it. */
type Declared = {
  call: string;
  tags: string[];
  summary: string;
  description: string;
  statuses: number[];
  refusals: Refusal[];
};

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

type Operation = {
  tags?: string[];
  summary?: string;
  description?: string;
  responses: Record<string, { description?: string; content?: Record<string, { schema: unknown }> }>;
};

/** Every call of an OpenAPI document, with its words, its statuses and its error codes. */
function declaredCalls(document: {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}): Declared[] {
  const components = document.components?.schemas ?? {};
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const statuses = Object.keys(operation.responses).map(Number).sort();
      const refusals = Object.entries(operation.responses).flatMap(([status, response]) =>
        Number(status) >= 400
          ? [
              {
                status: Number(status),
                codes: codesOf(response.content?.["application/json"]?.schema, components),
                description: response.description ?? "",
              },
            ]
          : [],
      );
      return {
        call: `${method.toUpperCase()} ${path}`,
        tags: operation.tags ?? [],
        summary: operation.summary ?? "",
        description: operation.description ?? "",
        statuses,
        refusals,
      };
    }),
  );
}

/** The codes an error status's description names as `` `code`: `` (each with its meaning). */
const describedCodes = (description: string) =>
  [...(description.split("\n\nHere: ")[0] ?? "").matchAll(/`([a-z_]+)`:/g)].map((m) => m[1] ?? "");

/** The route's own reason for a status: its description after `Here:`. */
const reasonOf = (description: string) => /\bHere: ([\s\S]*)$/.exec(description)?.[1] ?? "";

/**
 * How the document and the overview differ: a call declared and not in the index, or indexed under
 * another room than its tag; a call the overview names (in the index or its prose) that is not
 * declared; an error code a status's schema answers and its description does not name, or the
 * other way. Empty when they agree.
 */
function differences(declared: Declared[], indexed: Indexed[], mentioned: string[]): string[] {
  const problems: string[] = [];
  const roomOf = new Map(indexed.map((i) => [i.call, i.room]));
  for (const call of declared) {
    const room = roomOf.get(call.call);
    if (room === undefined) problems.push(`${call.call}: declared in /api/openapi.json, not in ${DOC}'s index`);
    else if (!call.tags.includes(room))
      problems.push(`${call.call}: tagged ${call.tags.join(", ")}, indexed under ${room}`);
    for (const refusal of call.refusals) {
      const inDescription = new Set(describedCodes(refusal.description));
      const inSchema = new Set(refusal.codes);
      for (const code of inSchema)
        if (!inDescription.has(code))
          problems.push(`${call.call}: ${refusal.status} ${code} declared, not in its description`);
      for (const code of inDescription)
        if (!inSchema.has(code))
          problems.push(`${call.call}: ${refusal.status} ${code} in its description, not declared`);
    }
  }
  const declaredCallsSet = new Set(declared.map((d) => d.call));
  for (const call of new Set([...indexed.map((i) => i.call), ...mentioned])) {
    if (!declaredCallsSet.has(call)) problems.push(`${call}: named in ${DOC}, not declared`);
  }
  return problems;
}

/**
 * The codes docs/api.md's "Errors" section says every call may answer without each call listing
 * them: 500 `internal_error`; and with a body (every POST here), 400 `invalid_request`, 413
 * `too_large` and 403 `cross_origin` (but for the calls exempt from the cross-site check).
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
  it("reads the app's routes, its document and the overview's index", () => {
    // A guard against a vacuous pass: the routing table, the document and the index were really read.
    for (const call of ["GET /healthz", "GET /api/get-events", "GET /api/admin-event/{id}/roster"]) {
      expect(served).toContain(call);
      expect(declared.map((d) => d.call)).toContain(call);
      expect(index.map((i) => i.call)).toContain(call);
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
      .filter((d) => !d.statuses.some((s) => s < 400) || !d.refusals.some((r) => r.codes.includes("internal_error")))
      .map((d) => d.call);
    expect(without, "calls declared without a success reply or without their errors").toEqual([]);
  });

  it("indexes every call under its room, names only declared calls, and describes each status's codes", () => {
    expect(differences(declared, index, named)).toEqual([]);
    // What the overview's "Errors" says every call may answer, each call declares.
    const missing = declared.flatMap((d) =>
      commonCodes(d.call)
        .filter(({ status, code }) => !d.refusals.some((r) => r.status === status && r.codes.includes(code)))
        .map(({ status, code }) => `${d.call}: ${status} ${code}`),
    );
    expect(missing, `codes ${DOC}'s "Errors" says every such call answers, not declared`).toEqual([]);
  });

  it("notices a call missing from either, and a code one of them lacks", () => {
    const [first, ...rest] = declared;
    if (!first) throw new Error("the document declares no call");
    expect(differences(rest, index, named)).toContain(`${first.call}: named in ${DOC}, not declared`);
    const unindexed = index.filter((i) => i.call !== first.call);
    expect(differences(declared, unindexed, [])).toContain(
      `${first.call}: declared in /api/openapi.json, not in ${DOC}'s index`,
    );
    const elsewhere = index.map((i) => (i.call === first.call ? { ...i, room: "nowhere" } : i));
    expect(differences(declared, elsewhere, []).join("\n")).toMatch(/indexed under nowhere/);
    const withExtraCode = declared.map((d) =>
      d.call === first.call
        ? { ...d, refusals: d.refusals.map((r, i) => (i === 0 ? { ...r, codes: [...r.codes, "sold_out"] } : r)) }
        : d,
    );
    expect(differences(withExtraCode, index, named).join("\n")).toMatch(/sold_out declared, not in its description/);
  });

  it("indexes each call once, and names in each error status's description the codes it answers", () => {
    const calls = index.map((i) => i.call);
    const twice = calls.filter((call, i) => calls.indexOf(call) !== i);
    expect(twice, `calls listed twice in ${DOC}'s index`).toEqual([]);
    const unnamed = declared.flatMap((d) =>
      d.refusals
        // A reply that is not an error reply (`/healthz`'s 503, the local checkout's HTML) has no code.
        .filter(
          (r) => r.description.trim() === "" || r.codes.some((code) => !describedCodes(r.description).includes(code)),
        )
        .map((r) => `${d.call}: ${r.status}`),
    );
    expect(unnamed, "error statuses whose description does not name each of their codes").toEqual([]);
  });

  it("gives every operation a one-line summary and a description that says who may call it", () => {
    const withoutSummary = declared.filter((d) => d.summary.trim() === "" || d.summary.includes("\n"));
    expect(
      withoutSummary.map((d) => d.call),
      "operations without a one-line summary",
    ).toEqual([]);
    const withoutWho = declared.filter((d) => !/\*\*Who:\*\* \S/.test(d.description)).map((d) => d.call);
    expect(withoutWho, "operations whose description has no `**Who:**` saying who may call them").toEqual([]);
  });

  it(`keeps ${DOC} the overview, at most ${MAX_LINES} lines`, () => {
    expect(doc.trimEnd().split("\n").length).toBeLessThanOrEqual(MAX_LINES);
    for (const heading of ["## Error codes", INDEX_HEADING, "### Who may call", "### Errors", "### Rate limits"]) {
      expect(lines, `${DOC} keeps its "${heading}" section`).toContain(heading);
    }
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

  it("names only known codes in the operations' refusals, each with the status the table gives it", () => {
    const wrong: string[] = [];
    for (const call of declared) {
      for (const refusal of call.refusals) {
        // The codes the status answers and describes, and those its own reason (after `Here:`) names.
        const reason = [...reasonOf(refusal.description).matchAll(/`([a-z_]+)`/g)].map((m) => m[1] ?? "");
        const codes = [
          ...refusal.codes,
          ...describedCodes(refusal.description),
          ...reason.filter((w) => isErrorCode(w)),
        ];
        for (const code of new Set(codes)) {
          const row = table.get(code);
          if (!row) wrong.push(`${call.call}: \`${code}\` is not an error code`);
          else if (refusal.status !== row.status)
            wrong.push(`${call.call}: \`${code}\` is ${row.status}, not ${refusal.status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
