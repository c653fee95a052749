import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { suiteTestServer } from "../../test/api-harness.ts";

// The API reference page's script is Scalar's standalone bundle, kept in vendor/scalar/ rather than
// installed with its 273 packages (vendor/scalar/README.md): the file is the one bundle.json records,
// and it is what the page is given.

const vendor = new URL("../../vendor/scalar/", import.meta.url);
const record = JSON.parse(readFileSync(new URL("bundle.json", vendor), "utf8")) as {
  package: string;
  version: string;
  integrity: string;
  sha256: string;
};
const bundle = readFileSync(new URL("standalone.js", vendor));

describe("vendor/scalar/standalone.js", () => {
  it("is the bundle bundle.json records: its SHA-256, and the package and version it names", () => {
    expect(record.package).toBe("@scalar/api-reference");
    expect(record.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    expect(createHash("sha256").update(bundle).digest("hex")).toBe(record.sha256);
    // The bundle's own banner names what it was built from.
    expect(bundle.subarray(0, 1000).toString("utf8")).toContain(`${record.package} ${record.version}`);
  });

  it("carries Scalar's licence beside it", () => {
    const licence = readFileSync(new URL("LICENSE", vendor), "utf8");
    expect(licence).toMatch(/^MIT License/);
    expect(licence).toContain("Scalar");
  });

  describe("GET /api/docs/scalar.js", () => {
    const server = suiteTestServer();

    it("answers exactly those bytes, compressed or not", async () => {
      for (const encoding of ["identity", "gzip", "br"]) {
        const reply = await fetch(`${server.url}/api/docs/scalar.js`, { headers: { "accept-encoding": encoding } });
        expect([encoding, reply.status]).toEqual([encoding, 200]);
        expect(reply.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
        // fetch undoes the compression: the body read is the file as it was sent.
        const body = Buffer.from(await reply.arrayBuffer());
        expect([encoding, body.length, body.equals(bundle)]).toEqual([encoding, bundle.length, true]);
      }
    });
  });
});
