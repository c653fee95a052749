import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { signValue } from "../api/lib/crypto.ts";
import { PHOTO_QUALITIES, PHOTO_TARGET_BYTES, shrunkSize } from "../common/photo-size.ts";
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
  lastSeatMs: number;
  loserP50Ms: number;
  loserP99Ms: number;
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

async function race(photos: Buffer[], buyers: number): Promise<ReleaseResult> {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "bench", "release-server.ts")], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
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
    const url = `http://127.0.0.1:${info.port}/api/save-user-details`;
    const blobs = photos.map((p) => new Blob([new Uint8Array(p)], { type: "image/jpeg" }));
    const cpuBefore = cpuSecondsOf(child.pid!);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: buyers }, async (_, i) => {
        const phone = `+6140${String(i).padStart(7, "0")}`;
        const form = new FormData();
        form.set("name", `Buyer ${i}`);
        form.set("email", `buyer${i}@example.com`);
        form.set("phone", phone);
        form.set("gender", i % 2 ? "male" : "female");
        // Thirty on the night, inside the fixture event's 25–35: the age check passes, as it does for most buyers.
        form.set("dateOfBirth", `${new Date().getUTCFullYear() - 30}-01-15`);
        form.set("eventID", String(info.eventId));
        form.set("eventName", info.eventName);
        form.set("image", blobs[i % blobs.length]!, "IMG.jpg");
        const cookie = `sdt_phone=${signValue(SECRET, "verified-phone", phone, Date.now() + 3_600_000)}`;
        try {
          const response = await fetch(url, { method: "POST", body: form, headers: { cookie } });
          await response.arrayBuffer();
          return { status: response.status, ms: performance.now() - started };
        } catch {
          return { status: 0, ms: performance.now() - started };
        }
      }),
    );
    const cpuSeconds = cpuSecondsOf(child.pid!) - cpuBefore;
    rmSync(info.dir, { recursive: true, force: true });
    const held = answers.filter((a) => a.status === 200);
    const losers = answers
      .filter((a) => a.status === 409)
      .map((a) => a.ms)
      .sort((x, y) => x - y);
    const pct = (p: number) => losers[Math.min(losers.length - 1, Math.floor((p / 100) * losers.length))] ?? 0;
    return {
      buyers,
      held: held.length,
      soldOut: losers.length,
      failed: buyers - held.length - losers.length,
      lastSeatMs: Math.max(0, ...held.map((a) => a.ms)),
      loserP50Ms: pct(50),
      loserP99Ms: pct(99),
      cpuSeconds,
      bytesPerBuyer: photos.reduce((n, p) => n + p.length, 0) / photos.length,
    };
  } finally {
    child.kill("SIGTERM");
  }
}

/** Both runs, downscaled first; `buyers` from BENCH_BUYERS (500 by default). */
export async function measureRelease(buyers: number) {
  // Two different camera photos, so no two neighbours in the queue send the same bytes.
  const originals = await Promise.all([cameraPhoto(3), cameraPhoto(4)]);
  const downscaled = await Promise.all(originals.map(shrinkLikeThePhone));
  return {
    downscaled: await race(downscaled, buyers),
    original: await race(originals, buyers),
  };
}
