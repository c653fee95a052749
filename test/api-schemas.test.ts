import { createHash } from "node:crypto";
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { checkReplies, declaredRoutes, errors, json, REPLY_MISMATCH, z } from "../api/lib/openapi.ts";
import { browserClient, suiteTestServer, withTestServer } from "./api-harness.ts";
import { hostAccessHelpers, PASSWORD } from "./suites/host-access.ts";

// The contract as schemas (docs/decisions/026-contract-as-schemas.md): every route declares its
// request, its replies and its errors; the document is generated from them; and every reply is
// checked against them outside production, the API tests failing on any that differs.

const DOCS = ["/api/openapi.json", "/api/docs", "/api/docs/scalar.js"];

describe("the OpenAPI document", () => {
  const server = suiteTestServer();

  it("is OpenAPI 3.1 with every call's request, replies and error schemas", async () => {
    const reply = await fetch(`${server.url}/api/openapi.json`);
    expect(reply.status).toBe(200);
    const document = await reply.json();
    expect(document.openapi).toBe("3.1.0");
    const sendOtp = document.paths["/api/send-otp"].post;
    // The request body's schema, as the route validates it.
    expect(sendOtp.requestBody.content["application/json"].schema.required).toEqual(["phone", "countryCode"]);
    // The reply, exactly: an extra field would be a mismatch.
    const ok = sendOtp.responses["200"].content["application/json"].schema;
    expect(ok.additionalProperties).toBe(false);
    expect(Object.keys(ok.properties)).toEqual(["success", "PhoneVerification"]);
    // Each error code is one named schema, referred to by every call that answers it.
    const conflicts = sendOtp.responses["409"].content["application/json"].schema;
    expect(conflicts.anyOf.map((s: { $ref: string }) => s.$ref)).toEqual([
      "#/components/schemas/Error_booking_closed",
      "#/components/schemas/Error_not_taking_bookings",
    ]);
    const soldOut = document.components.schemas.Error_gender_sold_out;
    expect(soldOut.properties.gender.enum).toEqual(["male", "female"]);
    expect(soldOut.required).toEqual(["success", "error", "code", "gender"]);
  });

  it("declares the admin-events reply as one closed object, never allOf of closed objects no validator accepts", async () => {
    const document = await (await fetch(`${server.url}/api/openapi.json`)).json();
    const list = document.paths["/api/admin-events"].get.responses["200"].content["application/json"].schema;
    expect(list.type).toBe("array");
    const item = list.items.$ref ? document.components.schemas[list.items.$ref.split("/").pop()] : list.items;
    expect(item.allOf).toBeUndefined();
    expect(item.type).toBe("object");
    expect(item.additionalProperties).toBe(false);
    expect(Object.keys(item.properties)).toEqual(expect.arrayContaining(["event_name", "seatsMale", "seatsFemale"]));
    // Nowhere else either: allOf of two closed objects accepts nothing.
    expect(JSON.stringify(document)).not.toContain('"allOf"');
  });

  it("is drawn by the reference page from the app's own files, its one inline script allowed by its hash", async () => {
    const page = await fetch(`${server.url}/api/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('src="/api/docs/scalar.js"');
    expect(html).toContain('"url": "/api/openapi.json"');
    // No CDN: every script and stylesheet the page names is this site's.
    expect(html).not.toMatch(/(src|href)="https?:/);
    const csp = page.headers.get("content-security-policy") ?? "";
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? "");
    expect(inline).toHaveLength(1);
    const hash = createHash("sha256")
      .update(inline[0] ?? "")
      .digest("base64");
    // script-src is this site and that one script, nothing inline besides.
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}';`);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);

    const script = await fetch(`${server.url}/api/docs/scalar.js`, { headers: { "accept-encoding": "gzip" } });
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });
});

describe("in production", () => {
  const server = suiteTestServer({ deps: (base) => ({ env: { ...base.env, NODE_ENV: "production" } }) });
  const { night, newLink, hostPhone } = hostAccessHelpers(server, () => organiser);
  let organiser = browserClient("");

  it("the document and the reference page are the organiser's only", async () => {
    organiser = browserClient(server.url);
    expect((await organiser.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
    const { event } = await night(2);
    const { phone: host } = await hostPhone(await newLink(event.id));
    const anyone = browserClient(server.url);
    for (const path of DOCS) {
      const refused = await anyone.get(path);
      expect([path, refused.status, (await refused.json()).code]).toEqual([path, 401, "admin_session_required"]);
      const hostReply = await host.get(path);
      expect([path, hostReply.status, (await hostReply.json()).code]).toEqual([path, 403, "forbidden"]);
      expect([path, (await organiser.get(path)).status]).toEqual([path, 200]);
    }
  });

  it("replies are not checked (no cost, no warning)", async () => {
    // The harness would list a checked reply that differs; in production nothing is checked at all.
    await fetch(`${server.url}/api/public-config`);
    expect(server.replyMismatches).toEqual([]);
  });
});

describe("a reply that differs from its declaration", () => {
  /** A tiny app with one declared route whose handler answers `reply`, checked as the app checks. */
  async function checked(reply: unknown, status = 200) {
    const warnings: unknown[] = [];
    const route = createRoute({
      method: "get",
      path: "/api/thing",
      responses: {
        200: json(z.strictObject({ name: z.string(), seats: z.number().int() })),
        ...errors("get", ["not_found"]),
      },
    });
    const app = new OpenAPIHono();
    app.use(
      "*",
      checkReplies(
        () => declaredRoutes(app),
        (message, fields) => warnings.push({ message, ...fields }),
      ),
    );
    // Deliberately typed loosely: the point is what the check does with a reply the types missed.
    app.openapi(route, (c) => c.json(reply as { name: string; seats: number }, status as 200));
    const response = await app.request("/api/thing");
    return { warnings, body: await response.json() };
  }

  it("is let through as it is, and logged as a warning naming the route and the field", async () => {
    expect((await checked({ name: "Harbour Mixer", seats: 20 })).warnings).toEqual([]);
    const renamed = await checked({ name: "Harbour Mixer", seatCount: 20 });
    // The client still gets the reply: the check reports, it never breaks a call.
    expect(renamed.body).toEqual({ name: "Harbour Mixer", seatCount: 20 });
    expect(renamed.warnings).toEqual([
      expect.objectContaining({ message: REPLY_MISMATCH, route: "GET /api/thing", status: 200 }),
    ]);
    expect(JSON.stringify(renamed.warnings)).toMatch(/seats/);
  });

  it("is caught when a field is added, a type drifts, a status or an error code is not declared", async () => {
    const problems = async (reply: unknown, status?: number) =>
      (await checked(reply, status)).warnings.map((w) => (w as { problem: string }).problem);
    expect(await problems({ name: "x", seats: 2, phone: "+61412345678" })).toHaveLength(1);
    expect(await problems({ name: "x", seats: "2" })).toEqual([expect.stringMatching(/^seats:/)]);
    expect(await problems({ success: false, error: "Gone.", code: "gone" }, 410)).toEqual([
      "status 410 is not declared",
    ]);
    expect(await problems({ success: false, error: "No.", code: "forbidden" }, 404)).toEqual([
      expect.stringMatching(/^code:/),
    ]);
    expect(await problems({ success: false, error: "No such event.", code: "not_found" }, 404)).toEqual([]);
  });

  it("fails the API test that saw it, through the one test harness", async () => {
    // The local SMS outbox made to answer one field more than GET /api/dev/outbox declares.
    const drifted = withTestServer(
      {
        deps: () => ({
          devOutbox: {
            list: () => [{ to: "+61412345678", body: "Hello", createdAt: new Date(0).toISOString(), code: "123456" }],
          },
        }),
      },
      async (server) => {
        expect((await fetch(`${server.url}/api/dev/outbox`)).status).toBe(200);
        expect(server.replyMismatches).toEqual([
          expect.objectContaining({ route: "GET /api/dev/outbox", status: 200 }),
        ]);
      },
    );
    await expect(drifted).rejects.toThrow(/replies that differ from their declared schema/);
  });
});

describe("a body of another kind than the call takes", () => {
  const server = suiteTestServer();

  it("is a 400 invalid_request, as before the schemas", async () => {
    const reply = await fetch(`${server.url}/api/verify-otp`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "phone=0412345678",
    });
    expect(reply.status).toBe(400);
    expect(await reply.json()).toEqual({
      success: false,
      error: "The request body is not in a form this call takes.",
      code: "invalid_request",
    });
  });
});
