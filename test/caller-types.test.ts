import { createRoute } from "@hono/zod-openapi";
import { zValidator } from "@hono/zod-validator";
import { type Context, Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AppDeps } from "../api/deps.ts";
import { requireAdmin } from "../api/lib/admin-session.ts";
import type { Caller } from "../api/lib/caller.ts";
import { apiRouter, errors, json, jsonBody } from "../api/lib/openapi.ts";
import { actorOf, logActivity, requireStaff, staffFor } from "../api/lib/staff.ts";

// The caller is a typed context variable (docs/decisions/024-who-is-calling.md). `npm run
// typecheck` checks this file: each `@ts-expect-error` below is a handler without requireAdmin or
// requireStaff asking who is calling, which must not compile; were it to compile, the unused
// directive would fail the typecheck instead.

const deps = {} as AppDeps;
const body = zValidator("json", z.object({ eventID: z.number() }));

// Without the middleware: none of the helpers accepts the handler's context.
const withoutMiddleware = new Hono()
  // @ts-expect-error a route without requireStaff has no caller
  .get("/staff", (c) => c.json({ role: staffFor(c, 1).role }))
  // @ts-expect-error validation is no guard: still no caller
  .post("/actor", body, (c) => c.json({ actor: actorOf(c) }))
  .post("/log", body, (c) => {
    // @ts-expect-error nor can it log a change under anyone's name
    logActivity(c, deps, { action: "event edited", eventId: c.req.valid("json").eventID });
    return c.json({ success: true as const });
  });

// An organiser-only route names who may make it (api/lib/roles.ts): requireAdmin without its access
// does not compile, so no route can leave its roles undeclared (docs/decisions/050-the-team.md).
// @ts-expect-error requireAdmin needs the route's access
requireAdmin(deps);

// With it, per route or for the rest of the chain, the handler's context carries `caller`.
const withMiddleware = new Hono()
  .post("/admin", requireAdmin(deps, "managers"), body, (c) => {
    logActivity(c, deps, { action: "event edited", eventId: c.req.valid("json").eventID });
    return c.json({ actor: actorOf(c) });
  })
  .get("/staff", requireStaff(deps), (c) => c.json({ role: staffFor(c, 1).role }))
  .use(requireStaff(deps))
  .get("/after-use", (c) => {
    const caller: Caller = c.var.caller;
    return c.json({ role: caller.role });
  });

// The same for declared routes (@hono/zod-openapi, docs/decisions/026): a route's middleware types
// its handler's context. A middleware typed with Hono's default Env (`MiddlewareHandler` bare) would
// make that context `any` and lift this guarantee, so the app's route middlewares name their Env
// (`MiddlewareHandler<CallerEnv>` for the guards, `MiddlewareHandler<BlankEnv>` for the rest).
const staffRoute = createRoute({
  method: "post",
  path: "/declared",
  request: jsonBody(z.object({ eventID: z.number() })),
  responses: { 200: json(z.object({ role: z.string() })), ...errors("post", []) },
});
const declaredWithout = apiRouter()
  // @ts-expect-error a declared route without requireStaff has no caller
  .openapi(staffRoute, (c) => c.json({ role: staffFor(c, c.req.valid("json").eventID).role }, 200));
const declaredWith = apiRouter().openapi({ ...staffRoute, middleware: requireStaff(deps) }, (c) =>
  c.json({ role: staffFor(c, c.req.valid("json").eventID).role }, 200),
);

describe("a handler without the caller", () => {
  it("compiles behind requireAdmin or requireStaff, given per route or with use()", () => {
    expect(withMiddleware.routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(["POST /admin", "GET /staff", "GET /after-use"]),
    );
    expect(declaredWith.routes.map((r) => `${r.method} ${r.path}`)).toContain("POST /declared");
  });

  it("answers 500 should one run anyway, never as the organiser", async () => {
    // `Context` on its own is typed `any` inside, so this handler compiles: at run time it still fails closed.
    const loose = (c: Context) => c.json({ role: staffFor(c, 1).role });
    const app = new Hono().route("/", withoutMiddleware).route("/", declaredWithout).get("/loose", loose);
    app.onError((_, c) => c.json({ success: false }, 500));
    const json = { method: "POST", headers: { "content-type": "application/json" }, body: '{"eventID":1}' };
    for (const response of [
      await app.request("/staff"),
      await app.request("/actor", json),
      await app.request("/log", json),
      await app.request("/loose"),
      await app.request("/declared", json),
    ]) {
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ success: false });
    }
  });
});
