import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { OPERATION_SECURITY } from "../api/ops/openapi-operations.ts";
import { suiteTestServer } from "./api-harness.ts";
import { PASSWORD } from "./suites/host-access.ts";

// /api/openapi.json is the reference a client generator reads (issue 47, part 2): every operation
// has an operationId, the tag of its room, and the security it takes, from schemes the document
// declares with the cookies and the link token the server really reads.

type Operation = { operationId?: string; tags?: string[]; security?: Record<string, string[]>[] };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  tags?: { name: string; description?: string }[];
  components?: { securitySchemes?: Record<string, { type: string; in?: string; name?: string }> };
};

const ROOMS = ["booking", "night", "organiser", "messaging", "ops", "wallet"];

/** Each operation as `METHOD /path`, with its declaration. */
const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method,
      path,
      call: `${method.toUpperCase()} ${path}`,
      operation,
    })),
  );

/**
 * Every call the routes files declare (`createRoute({ method, path })`), with the room (the folder
 * of api/) its file lives in: read from the source, so the tags are checked against where the code is.
 */
function declaredInRooms(): Map<string, string> {
  const rooms = new Map<string, string>();
  const api = new URL("../api/", import.meta.url);
  for (const room of readdirSync(api, { withFileTypes: true })) {
    if (!room.isDirectory()) continue;
    for (const file of readdirSync(new URL(`${room.name}/`, api))) {
      if (!file.endsWith("-routes.ts")) continue;
      const source = readFileSync(new URL(`${room.name}/${file}`, api), "utf8");
      for (const [, body] of source.matchAll(/createRoute\(\{([\s\S]*?)\n\}\);/g)) {
        const method = /method: "(\w+)"/.exec(body ?? "")?.[1];
        let path = /\n {2}path: ([^,\n]+),/.exec(body ?? "")?.[1]?.trim();
        if (!method || !path) continue;
        // A path named by a constant of the same file (`path: BUNDLE_PATH`).
        if (!path.startsWith('"')) path = new RegExp(`const ${path} = ("[^"]+")`).exec(source)?.[1] ?? path;
        const bare = JSON.parse(path) as string;
        // A room's router is mounted under /api (api/app.ts), but for /healthz and the document's own.
        const full = bare.startsWith("/api/") || bare === "/healthz" ? bare : `/api${bare}`;
        rooms.set(`${method.toUpperCase()} ${full}`, room.name);
      }
    }
  }
  return rooms;
}

describe("/api/openapi.json's operations", () => {
  const server = suiteTestServer();
  let document: Document;
  let operations: ReturnType<typeof operationsOf>;

  beforeAll(async () => {
    const reply = await fetch(`${server.url}/api/openapi.json`);
    expect(reply.status).toBe(200);
    document = await reply.json();
    operations = operationsOf(document);
  });

  it("each have a unique camelCase operationId made from the path, with the method only where the path has several", () => {
    expect(operations.length).toBeGreaterThan(90);
    const ids = operations.map((o) => o.operation.operationId);
    expect(
      operations.filter((o) => !/^[a-z][A-Za-z0-9]*$/.test(o.operation.operationId ?? "")).map((o) => o.call),
      "operations without a camelCase operationId",
    ).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const { method, path, operation } of operations) {
      const several = Object.keys(document.paths[path] ?? {}).length > 1;
      const words = path
        .replace(/^\/api\//, "/")
        .split(/[^A-Za-z0-9{}]+/)
        .filter((w) => w && !w.startsWith("{"));
      expect(operation.operationId?.toLowerCase(), `${method} ${path}`).toBe(
        [...(several ? [method] : []), ...words].join("").toLowerCase(),
      );
    }
    const idOf = (method: string, path: string) => document.paths[path]?.[method]?.operationId;
    expect(idOf("post", "/api/save-user-details")).toBe("saveUserDetails");
    expect(idOf("get", "/api/admin-event/{id}/roster")).toBe("adminEventRoster");
    expect(idOf("get", "/api/me-consent")).toBe("getMeConsent");
    expect(idOf("post", "/api/me-consent")).toBe("postMeConsent");
    expect(idOf("get", "/healthz")).toBe("healthz");
  });

  it("each carry the tag of the room whose folder holds their routes file, and the document describes each room", () => {
    const rooms = declaredInRooms();
    // Read from the source, so the check is not vacuous: every operation's routes file was found.
    expect(operations.filter((o) => !rooms.has(o.call)).map((o) => o.call)).toEqual([]);
    const wrong = operations
      .filter((o) => JSON.stringify(o.operation.tags) !== JSON.stringify([rooms.get(o.call)]))
      .map((o) => `${o.call}: ${JSON.stringify(o.operation.tags)}, its routes file is in api/${rooms.get(o.call)}/`);
    expect(wrong).toEqual([]);
    expect(document.tags?.map((t) => t.name)).toEqual(ROOMS);
    expect(document.tags?.filter((t) => !t.description).map((t) => t.name)).toEqual([]);
  });

  it("declares the security schemes by the cookies and the link token the server reads", () => {
    const schemes = document.components?.securitySchemes ?? {};
    const where = Object.fromEntries(Object.entries(schemes).map(([name, s]) => [name, `${s.type} ${s.in} ${s.name}`]));
    expect(where).toMatchObject({
      organiserSession: "apiKey cookie sdt_admin",
      guestSession: "apiKey cookie sdt_me",
      verifiedPhone: "apiKey cookie sdt_phone",
      hostSession: "apiKey cookie sdt_host",
      signedLink: "apiKey query t",
    });
  });

  it("the organiser's scheme names the cookie admin-login sets", async () => {
    const reply = await fetch(`${server.url}/api/admin-login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(reply.status).toBe(200);
    const cookie = reply.headers.get("set-cookie") ?? "";
    expect(cookie.split("=")[0]).toBe(document.components?.securitySchemes?.organiserSession?.name);
  });

  it("each say which callers they take, from a table with exactly one entry per operation", () => {
    const ids = operations.map((o) => o.operation.operationId ?? o.call);
    const table = Object.keys(OPERATION_SECURITY);
    expect(
      ids.filter((id) => !table.includes(id)),
      "operations missing from OPERATION_SECURITY (api/ops/openapi-operations.ts)",
    ).toEqual([]);
    expect(
      table.filter((id) => !ids.includes(id)),
      "OPERATION_SECURITY keys no operation has",
    ).toEqual([]);
    expect(operations.filter((o) => !Array.isArray(o.operation.security)).map((o) => o.call)).toEqual([]);
    const declared = Object.keys(document.components?.securitySchemes ?? {});
    const unknown = operations.flatMap((o) =>
      (o.operation.security ?? []).flatMap((r) => Object.keys(r)).filter((name) => !declared.includes(name)),
    );
    expect(unknown).toEqual([]);
    const security = (method: string, path: string) => document.paths[path]?.[method]?.security;
    expect(security("get", "/api/get-events")).toEqual([]);
    expect(security("post", "/api/save-event")).toEqual([{ organiserSession: [] }]);
    expect(security("post", "/api/check-in")).toEqual([{ organiserSession: [] }, { hostSession: [] }]);
    expect(security("post", "/api/save-user-details")).toEqual([{ verifiedPhone: [] }]);
    expect(security("get", "/api/me")).toEqual([{ guestSession: [] }]);
    expect(security("post", "/api/ticket-status")).toEqual([{ signedLink: [] }]);
    expect(security("post", "/api/me-logout")).toEqual([{}, { guestSession: [] }]);
  });

  it("refuses, without a credential, every call whose security requires one", async () => {
    const sample: Record<string, string> = { id: "1", bookingId: "1", number: "1", name: `${"a".repeat(32)}.jpg` };
    const answered: string[] = [];
    let tried = 0;
    for (const { method, path, call, operation } of operations) {
      const security = operation.security ?? [];
      // Public calls, and calls that also answer with no credential (`{}`), are not this test's.
      if (security.length === 0 || security.some((r) => Object.keys(r).length === 0)) continue;
      tried++;
      const url = `${server.url}${path.replace(/\{(\w+)\}/g, (_, p: string) => sample[p] ?? "1")}`;
      const reply = await fetch(url, {
        method: method.toUpperCase(),
        ...(method === "post" && { headers: { "content-type": "application/json" }, body: "{}" }),
      });
      await reply.body?.cancel();
      if (reply.status < 400) answered.push(`${call}: ${reply.status}`);
    }
    // Most calls take a credential: the check is not vacuous.
    expect(tried).toBeGreaterThan(50);
    expect(answered, "calls that declare a credential but answered without one").toEqual([]);
  });
});
