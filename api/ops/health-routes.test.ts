import { rmSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type TestServer, withTestServer } from "../../test/api-harness.ts";

const health = async (server: TestServer) => {
  const response = await fetch(`${server.url}/healthz`);
  return { status: response.status, cache: response.headers.get("cache-control"), body: await response.json() };
};

// A server per test: two of them break theirs (a folder or the database gone) to see the 503.
describe("GET /healthz", () => {
  it("answers 200 ok, never cached, when the database answers and the folders take writes", async () => {
    await withTestServer(async (server) => {
      expect(await health(server)).toEqual({ status: 200, cache: "no-store", body: { ok: true } });
    });
  });

  it("is not rate limited like the API: a monitor polling it is always answered", async () => {
    await withTestServer(async (server) => {
      const statuses = await Promise.all(Array.from({ length: 30 }, async () => (await health(server)).status));
      expect(new Set(statuses)).toEqual(new Set([200]));
    });
  });

  it("answers 503, saying nothing more, when the uploads folder cannot be written", async () => {
    await withTestServer({ expectNoErrors: false }, async (server) => {
      const uploads = server.deps.env.UPLOADS_DIR;
      // A file where the folder should be: no write can succeed there, even for root.
      rmSync(uploads, { recursive: true, force: true });
      writeFileSync(uploads, "not a folder");
      expect(await health(server)).toEqual({ status: 503, cache: "no-store", body: { ok: false } });
      expect(server.errors.map((e) => e.message)).toContain("health check failed");
      // It recovers by itself once the folder is back.
      rmSync(uploads);
      expect((await health(server)).status).toBe(200);
    });
  });

  it("answers 503 when the database does not answer", async () => {
    await withTestServer({ expectNoErrors: false }, async (server) => {
      server.deps.db.$client.close();
      expect(await health(server)).toEqual({ status: 503, cache: "no-store", body: { ok: false } });
    });
  });
});
