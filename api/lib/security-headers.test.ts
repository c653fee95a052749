import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { suiteTestServer } from "../../test/api-harness.ts";
import { scriptSource } from "./security-headers.ts";

const server = suiteTestServer(() => {
  const dist = mkdtempSync(join(tmpdir(), "sdt-dist-headers-"));
  writeFileSync(join(dist, "index.html"), "<!doctype html><title>shell</title>");
  return {
    env: {
      NAVBAR_SCRIPT_URL: "https://cdn.example.net/slim.js",
      NAVBAR_SCRIPT_INTEGRITY: "sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC",
    },
    deps: () => ({ staticDir: dist }),
  };
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
    // The one third-party file, not everything its CDN serves.
    expect(csp).toMatch(/script-src 'self' https:\/\/cdn\.example\.net\/slim\.js(;|$)/);
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

  it("name the third-party script by its exact address, which cannot break out of the directive", () => {
    expect(scriptSource("https://code.jquery.com/jquery-3.7.1.slim.min.js?v=1#x")).toBe(
      "https://code.jquery.com/jquery-3.7.1.slim.min.js",
    );
    expect(scriptSource("https://cdn.example.net/a;script-src *,b.js")).toBe(
      "https://cdn.example.net/a%3Bscript-src%20*%2Cb.js",
    );
    expect(scriptSource("javascript:alert(1)")).toBeUndefined();
  });
});
