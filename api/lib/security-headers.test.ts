import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/api-harness.ts";

let server: TestServer;

beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), "sdt-dist-headers-"));
  writeFileSync(join(dist, "index.html"), "<!doctype html><title>shell</title>");
  server = await startTestServer({
    env: { NAVBAR_SCRIPT_URL: "https://cdn.example.net/slim.js" },
    deps: () => ({ staticDir: dist }),
  });
});
afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

describe("security headers", () => {
  it.each([
    ["the app shell", "/ParticipantFeedback?par1=1&par2=2&t=secret", { accept: "text/html" }],
    ["an API answer", "/api/get-events", {}],
    ["an API error", "/api/get-event/abc", {}],
    ["an unknown path", "/api/nowhere", {}],
  ])("are on %s", async (_what, path, headers) => {
    const response = await fetch(server.url + path, { headers });
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' https://cdn.example.net");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    // The feedback links carry their token in the page URL: it must never travel as a referrer.
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("let images carry the QR code as a data URL but no other site's pictures", async () => {
    const csp = (await fetch(`${server.url}/api/get-events`)).headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/img-src 'self' data: blob:(;|$)/);
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
  });
});
