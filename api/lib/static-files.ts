import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { FIRST_PAINT_FILE, type FirstPaintPages } from "../../common/first-paint.ts";
import { CARD_PICTURE_MEDIA, cardPictureUrl, IMAGE_WIDTHS } from "../../common/image-widths.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".woff2": "font/woff2",
};
const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json)|image\/svg)/;

type StaticFile = { body: Buffer; type: string; br?: Buffer; gzip?: Buffer; cacheControl: string };

/**
 * Serves the built PWA from memory. The build is small, so every file is read and compressed once
 * at start-up: no per-request disk or CPU work, and only files that exist in the build can ever be
 * served (a path with `..` simply is not in the map). `npm run build` writes each file's compressed
 * copies beside it (scripts/precompress.mjs), so a start reads them instead of spending a second
 * of CPU on brotli's best quality; a file without fresh copies is compressed here, as before.
 */
export function staticFiles(dir: string, options: { homePicture?: () => string | null } = {}): MiddlewareHandler {
  const files = new Map<string, StaticFile>();
  for (const path of walk(dir)) {
    if (PRECOMPRESSED.test(path)) continue;
    const url = `/${relative(dir, path).split(sep).join("/")}`;
    const type = TYPES[extname(path)] ?? "application/octet-stream";
    const body = readFileSync(path);
    const file: StaticFile = { body, type, cacheControl: cacheControlFor(url) };
    if (COMPRESSIBLE.test(type) && body.length > 512) Object.assign(file, precompressed(path) ?? compressed(body));
    files.set(url, file);
  }
  const index = files.get("/index.html");
  const drawn = firstPaints(files, index);
  const withPreload = new Map<string, StaticFile>();
  /**
   * The home page with its largest paint, the first card's picture, named in the HTML: the phone
   * fetches it alongside the code instead of after the code and the list (docs/decisions/007-scale.md).
   * One compressed copy per picture, kept while it is the first.
   */
  const homePage = (): StaticFile | undefined => {
    const home = drawn.get("/")?.() ?? index;
    const picture = options.homePicture?.();
    if (!home || !picture) return home;
    let file = withPreload.get(picture);
    if (!file) {
      const url = `/api/images/${encodeURIComponent(picture)}`;
      // As the card fetches it (pwa/features/events/card-picture.ts): one width per screen density,
      // with fetch()'s mode, so that fetch takes this response instead of asking again.
      const link = IMAGE_WIDTHS.map(
        (w) =>
          `<link rel="preload" as="fetch" crossorigin="anonymous" fetchpriority="high" href="${cardPictureUrl(url, w)}" media="${CARD_PICTURE_MEDIA[w]}">`,
      ).join("\n");
      const body = Buffer.from(home.body.toString("utf8").replace("</head>", `${link}\n</head>`));
      file = { ...home, body, ...compressed(body) };
      withPreload.clear();
      withPreload.set(picture, file);
    }
    return file;
  };

  return async (c, next) => {
    const method = c.req.method;
    const path = c.req.path;
    if ((method !== "GET" && method !== "HEAD") || path.startsWith("/api/") || path === "/api") return next();
    let file = path === "/" || path === "/index.html" ? homePage() : files.get(path);
    // SPA fallback: any other navigation gets the app shell, whose router decides what to show, with
    // the page's first screen in it where the build drew one.
    if (!file && index && !extname(path) && (c.req.header("accept") ?? "").includes("text/html")) {
      file = drawn.get(path)?.() ?? index;
    }
    if (!file) return next();
    const range = c.req.header("range");
    if (range && !file.gzip) {
      // Safari fetches video in byte ranges and refuses to play without 206 answers.
      const slice = byteRange(range, file.body.length);
      if (!slice) {
        return c.body(null, 416, { "content-range": `bytes */${file.body.length}` });
      }
      const [start, end] = slice;
      const headers = {
        "content-type": file.type,
        "cache-control": file.cacheControl,
        "accept-ranges": "bytes",
        "content-range": `bytes ${start}-${end}/${file.body.length}`,
      };
      if (method === "HEAD") return c.body(null, 206, headers);
      return c.body(new Uint8Array(file.body.subarray(start, end + 1)), 206, headers);
    }
    const accepted = c.req.header("accept-encoding") ?? "";
    const headers: Record<string, string> = {
      "content-type": file.type,
      "cache-control": file.cacheControl,
      vary: "accept-encoding",
    };
    if (!file.gzip) headers["accept-ranges"] = "bytes";
    let body = file.body;
    if (file.br && /\bbr\b/.test(accepted)) {
      body = file.br;
      headers["content-encoding"] = "br";
    } else if (file.gzip && /\bgzip\b/.test(accepted)) {
      body = file.gzip;
      headers["content-encoding"] = "gzip";
    }
    if (method === "HEAD") return c.body(null, 200, headers);
    return c.body(new Uint8Array(body), 200, headers);
  };
}

/**
 * The app shell of each page the build drew a first screen for (scripts/first-paint.mjs): its markup
 * in `#root`, so a phone paints it before the code has arrived, and the styles it needs in the head.
 * The build's list and Vite's manifest are what the build knew, not files to serve.
 */
function firstPaints(files: Map<string, StaticFile>, index: StaticFile | undefined): Map<string, () => StaticFile> {
  const list = files.get(`/${FIRST_PAINT_FILE}`);
  files.delete(`/${FIRST_PAINT_FILE}`);
  files.delete("/.vite/manifest.json");
  const shells = new Map<string, () => StaticFile>();
  if (!index || !list) return shells;
  const html = index.body.toString("utf8");
  for (const [path, page] of Object.entries(JSON.parse(list.body.toString("utf8")) as FirstPaintPages)) {
    const root = `<div id="root"${page.hydrate ? " data-hydrate" : ""}>${page.root}</div>`;
    const drawn = html
      .replace("</head>", `${page.head.map((tag) => `${tag}\n`).join("")}</head>`)
      .replace('<div id="root"></div>', () => root);
    const body = Buffer.from(drawn);
    // Compressed on first being asked for, not at start: a server start (each browser suite's) pays
    // only for the pages it serves.
    let file: StaticFile | undefined;
    shells.set(path, () => {
      file ??= { ...index, body, ...compressed(body) };
      return file;
    });
  }
  return shells;
}

/** The copies scripts/precompress.mjs writes, named `<file>.br` and `<file>.gz`: never served by their own names. */
const PRECOMPRESSED = /\.(br|gz)$/;

/** A file's compressed copies from the build, when both exist and are no older than the file itself. */
function precompressed(path: string): { br: Buffer; gzip: Buffer } | undefined {
  const written = statSync(path).mtimeMs;
  const copies = [`${path}.br`, `${path}.gz`];
  if (!copies.every((copy) => existsSync(copy) && statSync(copy).mtimeMs >= written)) return undefined;
  return { br: readFileSync(`${path}.br`), gzip: readFileSync(`${path}.gz`) };
}

/** Brotli at its best quality and gzip at 9; scripts/precompress.mjs writes the same at build time. */
function compressed(body: Buffer): { br: Buffer; gzip: Buffer } {
  return {
    br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(body, { level: 9 }),
  };
}

/** The first range of a `bytes=` header, clamped to the file; null when it cannot be satisfied. */
function byteRange(header: string, size: number): [number, number] | null {
  const match = /^bytes=(\d*)-(\d*)/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start: number;
  let end: number;
  if (match[1] === "") {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start <= end && start < size ? [start, end] : null;
}

function cacheControlFor(url: string): string {
  // Vite names everything under /assets/ by content hash, so it can be cached for good.
  if (url.startsWith("/assets/")) return "public, max-age=31536000, immutable";
  // The shell, the service worker and the manifest must be revalidated so a deployment shows up.
  if (/\.(html|webmanifest)$/.test(url) || /^\/(sw|workbox-[\w-]+|registerSW)\.js$/.test(url)) return "no-cache";
  return "public, max-age=86400";
}

function* walk(dir: string): Generator<string> {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}
