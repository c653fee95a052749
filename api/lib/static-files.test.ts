import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { FIRST_PAINT_FILE, type FirstPaintPages } from "../../common/first-paint.ts";
import { FIRST_PAINT_FILE as BUILD_FIRST_PAINT_FILE } from "../../scripts/first-paint.mjs";
import { precompress } from "../../scripts/precompress.mjs";
import { staticFiles } from "./static-files.ts";

// The built PWA is served compressed from memory; `npm run build` writes the compressed copies
// (scripts/precompress.mjs) so a start reads them instead of making them.

let dir = "";
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const script = `console.log(${JSON.stringify("a line of the app ".repeat(80))});\n`;

function build(files: Record<string, string>) {
  dir = mkdtempSync(join(tmpdir(), "static-files-"));
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return dir;
}

async function get(path: string, encoding: string) {
  const app = new Hono().use("*", staticFiles(dir));
  const reply = await app.request(path, { headers: { "accept-encoding": encoding, accept: "text/html" } });
  return { reply, bytes: Buffer.from(await reply.arrayBuffer()) };
}

describe("the built PWA, compressed", () => {
  it("writes a brotli and a gzip copy of each compressible file over 512 bytes, and none of a small one", () => {
    build({ "app.js": script, "small.css": "a{}", "picture.png": "x".repeat(2000) });
    expect(precompress(dir)).toBe(1);
    expect(brotliDecompressSync(readFileSync(join(dir, "app.js.br"))).toString()).toBe(script);
    expect(gunzipSync(readFileSync(join(dir, "app.js.gz"))).toString()).toBe(script);
    expect(() => readFileSync(join(dir, "small.css.br"))).toThrow();
    expect(() => readFileSync(join(dir, "picture.png.gz"))).toThrow();
  });

  it("serves the build's copies, and never a copy by its own name", async () => {
    build({ "app.js": script });
    precompress(dir);
    // A marked copy: served only if the server takes the build's copy instead of compressing again.
    writeFileSync(join(dir, "app.js.br"), brotliCompressSync("the build's copy"));
    const br = await get("/app.js", "gzip, br");
    expect(br.reply.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(br.bytes).toString()).toBe("the build's copy");
    const gzip = await get("/app.js", "gzip");
    expect(gunzipSync(gzip.bytes).toString()).toBe(script);
    expect((await get("/app.js.br", "br")).reply.status).toBe(404);
  });

  it("compresses a file itself when its copies are missing or older than it", async () => {
    build({ "app.js": script });
    expect((await get("/app.js", "br")).reply.headers.get("content-encoding")).toBe("br");
    precompress(dir);
    writeFileSync(join(dir, "app.js.br"), "stale");
    writeFileSync(join(dir, "app.js.gz"), "stale");
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(dir, "app.js.br"), past, past);
    utimesSync(join(dir, "app.js.gz"), past, past);
    const fresh = await get("/app.js", "br");
    expect(brotliDecompressSync(fresh.bytes).toString()).toBe(script);
  });
});

describe("each page's first screen in its HTML (scripts/first-paint.mjs)", () => {
  const shell = `<!doctype html><html><head><title>Saathi</title></head><body><div id="root"></div></body></html>`;
  const drawn: FirstPaintPages = {
    "/": { head: [], root: "<main><h1>Upcoming Events</h1></main>", hydrate: false },
    "/welcome": {
      head: ['<link rel="stylesheet" crossorigin href="/assets/welcome-1.css">'],
      root: "<!--$--><h1>Date a step Deeper</h1><!--/$-->",
      hydrate: true,
    },
    "/tickets": { head: [], root: "<main><p>Loading…</p></main>", hydrate: false },
  };

  function builtWithFirstPaint() {
    build({ "index.html": shell, [FIRST_PAINT_FILE]: JSON.stringify(drawn) });
    mkdirSync(join(dir, ".vite"));
    writeFileSync(join(dir, ".vite", "manifest.json"), "{}");
  }
  const html = async (path: string, options: Parameters<typeof staticFiles>[1] = {}) => {
    const app = new Hono().use("*", staticFiles(dir, options));
    const reply = await app.request(path, { headers: { accept: "text/html" } });
    return { status: reply.status, text: await reply.text() };
  };

  it("serves a drawn page with its markup in #root, hydrated only where the whole screen is drawn", async () => {
    builtWithFirstPaint();
    const welcome = await html("/welcome");
    expect(welcome.text).toContain(
      '<div id="root" data-hydrate><!--$--><h1>Date a step Deeper</h1><!--/$--></div></body>',
    );
    expect(welcome.text).toContain('<link rel="stylesheet" crossorigin href="/assets/welcome-1.css">\n</head>');
    const tickets = await html("/tickets");
    expect(tickets.text).toContain('<div id="root"><main><p>Loading…</p></main></div>');
    expect(tickets.text).not.toContain("data-hydrate");
    expect(tickets.text).not.toContain("welcome-1.css");
    // A page the build did not draw gets the plain shell, its router decides.
    expect((await html("/ParticipantFeedback")).text).toBe(shell);
  });

  it("adds the home page's picture preload to its drawn screen", async () => {
    builtWithFirstPaint();
    const home = await html("/", { homePicture: () => "first.jpg" });
    expect(home.text).toContain('<div id="root"><main><h1>Upcoming Events</h1></main></div>');
    expect(home.text).toMatch(/<link rel="preload" as="fetch"[^>]*href="\/api\/images\/first\.jpg\?w=\d+"/);
  });

  it("never serves what the build knew as files: the list of drawn pages and Vite's manifest", async () => {
    builtWithFirstPaint();
    expect((await html(`/${FIRST_PAINT_FILE}`)).status).toBe(404);
    expect((await html("/.vite/manifest.json")).status).toBe(404);
  });

  it("is written by the build under the name the server reads", () => {
    expect(BUILD_FIRST_PAINT_FILE).toBe(FIRST_PAINT_FILE);
  });
});
