import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import sharp from "sharp";
import { verifiedPhoneToken } from "../api/booking/booking-cookie.ts";
import { PHOTO_QUALITIES, PHOTO_TARGET_BYTES, shrunkSize } from "../common/photo-size.ts";
import { copyServerFiles, serverBundle } from "../scripts/server-bundle.mjs";
import { cameraPhoto } from "../test/camera-photo.ts";

// The release run of `npm run bench` (docs/decisions/007-scale.md): N verified buyers at once, each
// sending the details form with a 12-megapixel camera photo, race for a balanced 40-seat event on a
// fresh server. Once with the photo as phones now send it (pwa/lib/shrink-photo.ts), once as the
// camera made it.

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SECRET = "bench-secret-bench-secret-bench-secret-00";

/**
 * The photo as the phone sends it: what pwa/lib/shrink-photo.ts does in the browser, with sharp and
 * the same constants (long side, target size, qualities tried in turn).
 */
export async function shrinkLikeThePhone(photo: Buffer): Promise<Buffer> {
  const source = sharp(photo).rotate();
  const { width = 0, height = 0 } = await source.clone().metadata();
  const size = shrunkSize(width, height);
  let out = photo;
  for (const quality of PHOTO_QUALITIES) {
    out = await source
      .clone()
      .resize(size)
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: Math.round(quality * 100) })
      .toBuffer();
    if (out.length <= PHOTO_TARGET_BYTES) break;
  }
  return out;
}

export type ReleaseResult = {
  buyers: number;
  held: number;
  soldOut: number;
  failed: number;
  /** From the rush's start (every request begun at once) to the last winner told the seat is theirs. */
  lastSeatMs: number;
  /** Each loser's wait for "sold out", from their own request (its connection made) to the answer. */
  loserP50Ms: number;
  loserP99Ms: number;
  /** The same wait counted from the rush's start: it adds the bench's own time opening every request. */
  loserP99FromStartMs: number;
  /** From the rush's start until every winner's photo is stored (it is stored after the answer). */
  photosStoredMs: number;
  /** The server's CPU from the rush's start until the photos are stored. */
  cpuSeconds: number;
  bytesPerBuyer: number;
};

/** The server process's CPU time so far (user + system), from /proc: Linux only, 0 elsewhere. */
function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
  } catch {
    return 0;
  }
}

/**
 * bench/release-server.ts compiled as production's server is (scripts/build-server.mjs: esbuild, one
 * ESM bundle of our code, packages left to node_modules, the migrations beside it), to run with plain
 * `node` as `npm start` runs build/server.js: no TypeScript loader, no source maps (bench/README.md).
 */
async function compileReleaseServer(): Promise<string> {
  const out = join(root, "build", "bench");
  await build(serverBundle({ "release-server": "bench/release-server.ts" }, out));
  copyServerFiles(out);
  return join(out, "release-server.js");
}

async function race(photos: Buffer[], buyers: number, server: string): Promise<ReleaseResult> {
  const child = spawn(
    process.execPath,
    process.env.BENCH_SERVER_ARGS ? JSON.parse(process.env.BENCH_SERVER_ARGS) : [server],
    {
      cwd: root,
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  try {
    const info = await new Promise<{ port: number; eventId: number; eventName: string; dir: string }>(
      (resolve, reject) => {
        let buffer = "";
        child.stdout?.on("data", (chunk: Buffer) => {
          buffer += chunk.toString();
          const line = buffer.split("\n").find((l) => l.startsWith("{"));
          if (line) resolve(JSON.parse(line));
        });
        child.once("exit", (code) => reject(new Error(`release server exited with ${code}`)));
      },
    );
    const cpuBefore = cpuSecondsOf(child.pid!);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: buyers }, async (_, i) => {
        const phone = `+6140${String(i).padStart(7, "0")}`;
        const head = formHead({
          name: `Buyer ${i}`,
          email: `buyer${i}@example.com`,
          phone,
          gender: i % 2 ? "male" : "female",
          // Thirty on the night, inside the fixture event's 25–35: the age check passes, as it does for most buyers.
          dateOfBirth: `${new Date().getUTCFullYear() - 30}-01-15`,
          eventID: String(info.eventId),
          eventName: info.eventName,
        });
        const cookie = `sdt_phone=${verifiedPhoneToken(SECRET, phone, Date.now() + 3_600_000)}`;
        try {
          const { status, sentAt } = await postForm(info.port, cookie, head, photos[i % photos.length]!);
          const now = performance.now();
          return { status, ms: now - started, afterRequestMs: now - sentAt };
        } catch {
          return { status: 0, ms: performance.now() - started, afterRequestMs: 0 };
        }
      }),
    );
    // The winners' photos are stored after their answers: until then none of them can pay.
    const photosStored = new Promise<void>((resolve) =>
      child.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes('"photosStored"')) resolve();
      }),
    );
    child.stdin?.write("photos?\n");
    await photosStored;
    const photosStoredMs = performance.now() - started;
    const cpuSeconds = cpuSecondsOf(child.pid!) - cpuBefore;
    rmSync(info.dir, { recursive: true, force: true });
    const held = answers.filter((a) => a.status === 200);
    const losers = answers
      .filter((a) => a.status === 409)
      .map((a) => a.afterRequestMs)
      .sort((x, y) => x - y);
    const fromStart = answers
      .filter((a) => a.status === 409)
      .map((a) => a.ms)
      .sort((x, y) => x - y);
    const at = (sorted: number[], p: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
    const pct = (p: number) => at(losers, p);
    return {
      buyers,
      held: held.length,
      soldOut: losers.length,
      failed: buyers - held.length - losers.length,
      lastSeatMs: Math.max(0, ...held.map((a) => a.ms)),
      loserP50Ms: pct(50),
      loserP99Ms: pct(99),
      loserP99FromStartMs: at(fromStart, 99),
      photosStoredMs,
      cpuSeconds,
      bytesPerBuyer: photos.reduce((n, p) => n + p.length, 0) / photos.length,
    };
  } finally {
    child.kill("SIGTERM");
  }
}

const BOUNDARY = "----release-bench-boundary";

/**
 * The details form's text fields and the start of its photo part, in the order the PWA's form sends
 * them (pwa/features/booking/save-user-details.ts): the photo after the fields.
 */
function formHead(fields: Record<string, string>): Buffer {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return Buffer.from(
    `${parts.join("")}--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="IMG.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
}
const FORM_TAIL = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/**
 * Sends one form with node:http, its bytes written as they are (no per-buyer copy of the photo, no
 * form encoder), so the bench's own process spends little of the shared cores; resolves with the
 * status once the answer has been read. A server may answer before the photo has all been sent.
 */
function postForm(
  port: number,
  cookie: string,
  head: Buffer,
  photo: Buffer,
): Promise<{ status: number; sentAt: number }> {
  return new Promise((resolve, reject) => {
    let sentAt = performance.now();
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/api/save-user-details",
        agent: false,
        headers: {
          cookie,
          "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
          // As a browser sends it: the answers may come compressed.
          "accept-encoding": "gzip, deflate, br, zstd",
          "content-length": head.length + photo.length + FORM_TAIL.length,
        },
      },
      (res) => {
        res.resume();
        res.once("end", () => resolve({ status: res.statusCode ?? 0, sentAt }));
        res.once("error", reject);
      },
    );
    // The rest of a body the server no longer reads after answering may fail to send: the answer counts.
    req.on("error", reject);
    // The request leaves this buyer's phone when its connection is made: from then on it waits on the server.
    req.once("socket", (socket) => socket.once("connect", () => (sentAt = performance.now())));
    req.write(head);
    req.write(photo);
    req.end(FORM_TAIL);
  });
}

/**
 * The runs, each on a fresh server: the photo as the phone sends it for every size in `sizes`, and the
 * original camera photo for the first size only (2,000 originals would be 6.6 GB of uploads).
 */
export async function measureRelease(sizes: number[], options: { originals?: boolean } = {}) {
  // Two different camera photos, so no two neighbours in the queue send the same bytes.
  const originals = await Promise.all([cameraPhoto(3), cameraPhoto(4)]);
  const downscaled = await Promise.all(originals.map(shrinkLikeThePhone));
  const server = await compileReleaseServer();
  const runs: { label: "downscaled" | "original"; result: ReleaseResult }[] = [];
  for (const buyers of sizes) runs.push({ label: "downscaled", result: await race(downscaled, buyers, server) });
  if (sizes[0] && options.originals !== false)
    runs.push({ label: "original", result: await race(originals, sizes[0], server) });
  return runs;
}
