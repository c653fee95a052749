import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { openDatabase } from "../db/client.ts";
import { insertEvent } from "../test/fixtures.ts";
import { measureFirstLoad } from "./first-load.ts";
import { measureLighthouse } from "./lighthouse.ts";
import { load } from "./load.ts";
import { measurePartnersPage } from "./partners.ts";
import { measureRelease } from "./release.ts";
import { measureRoom, percentile } from "./room.ts";
import { measureRoundsFormats, roundsFormatsRows } from "./rounds-formats.ts";
import { measureRoundsWithHistory, timing } from "./rounds-history.ts";

// `npm run bench`: measures, never asserts. Prints a table and writes bench/results.md.
// `npm run bench -- js lighthouse` runs only the parts named (see PARTS) and replaces only their rows
// in bench/results.md.

/** Each part, and the rows of bench/results.md that are its own (replaced when it runs alone). */
const PARTS = {
  js: /^Home page JavaScript/,
  download: /^(Home page download|Service worker precache)/,
  "get-events": /^(get-events|bare node:http)/,
  partners: /^(Partners page|Largest partner photo|Camera photo uploaded)/,
  lighthouse: /^Lighthouse/,
  rounds: /^(Plan |Re-plan | {2}of the pairs|plan-rounds)/,
  holds: /^(Seat holds per second|Last 100 seats)/,
  release: /^Release,/,
  room: /^Room[ :]/,
  reports: /^Report/,
} as const;
type Part = keyof typeof PARTS;
const isPart = (name: string): name is Part => Object.hasOwn(PARTS, name);
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !isPart(name));
if (unknown.length > 0) {
  console.error(`unknown part(s) ${unknown.join(", ")}: choose from ${Object.keys(PARTS).join(", ")}`);
  process.exit(2);
}
const only = new Set(asked.filter(isPart));
const runs = (part: Part) => only.size === 0 || only.has(part);

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const rows: [string, string, string][] = [];
const add = (what: string, value: string, target = "") => {
  rows.push([what, value, target]);
  console.log(`${what.padEnd(58)} ${value.padEnd(26)} ${target}`);
};

// 1–5 need the built PWA; the other parts do not build it.
const needsServers = (["js", "download", "get-events", "partners", "lighthouse"] as const).some(runs);
if (needsServers && !existsSync(join(dist, "index.html"))) {
  console.log("building the PWA first…");
  execFileSync("npx", ["vite", "build"], { cwd: root, stdio: "inherit" });
}

const html = needsServers ? readFileSync(join(dist, "index.html"), "utf8") : "";

// 1–5 need the app and a bare node:http server with the same get-events bytes, in a child process.
const child: ChildProcess | null = needsServers
  ? spawn(process.execPath, ["--import", "tsx", join(root, "bench", "servers.ts")], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    })
  : null;
const ports = child
  ? await new Promise<{ appPort: number; barePort: number; bytes: number; dir: string }>((resolve, reject) => {
      let buffer = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        buffer += chunk.toString();
        const line = buffer.split("\n").find((l) => l.startsWith("{"));
        if (line) resolve(JSON.parse(line));
      });
      child.once("exit", (code) => reject(new Error(`bench servers exited with ${code}`)));
    })
  : null;

if (ports) {
  const app = `http://127.0.0.1:${ports.appPort}`;
  try {
    // 1. The home page's JavaScript: every script a phone's first visit fetches before the network
    // is idle, in a real browser (bench/first-load.ts). Budget: 85 KB gzipped (docs/decisions/007-scale.md).
    if (runs("js")) {
      const first = await measureFirstLoad(app);
      if (first) {
        const files = `${first.files.length} file${first.files.length === 1 ? "" : "s"}`;
        add(`Home page JavaScript (first load, ${files}), gzipped`, kb(first.gzip), "≤ 85 KB");
        add("Home page JavaScript (first load), uncompressed", kb(first.raw));
        for (const f of first.files)
          add(`Home page JavaScript, first load: ${f.path.replace(/^\/assets\//, "")}`, kb(f.gzip));
      } else add("Home page JavaScript (first load)", "skipped: no Chromium");
      // What the HTML names alone (the entry), for comparison with earlier runs.
      const entry = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) =>
        readFileSync(join(dist, m[1] as string)),
      );
      add(
        "Home page JavaScript, entry file only, gzipped",
        kb(entry.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0)),
      );
      add(
        "Home page JavaScript, entry file only, brotli",
        kb(entry.reduce((n, b) => n + brotliCompressSync(b).length, 0)),
      );
    }

    // 2. What a phone downloads to show the home page: the shell, its assets, the list and the pictures,
    // as encoded on the wire (brotli/gzip where the server compresses).
    if (runs("download")) {
      const wire = (path: string) =>
        new Promise<number>((resolve, reject) => {
          request(`${app}${path}`, { headers: { "accept-encoding": "br, gzip", accept: "text/html,*/*" } }, (res) => {
            let n = 0;
            res.on("data", (c: Buffer) => {
              n += c.length;
            });
            res.on("end", () => resolve(n));
          })
            .on("error", reject)
            .end();
        });
      const shellAssets = [
        "/",
        ...new Set([...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1] as string)),
        "/api/get-events",
      ];
      let shellBytes = 0;
      for (const path of shellAssets) shellBytes += await wire(path);
      const events = (await (await fetch(`${app}/api/get-events`)).json()) as { event_image: string }[];
      let imageBytes = 0;
      // The WebP a phone of about twice the density picks from the cards' srcset.
      for (const e of events) imageBytes += await wire(`/api/images/${e.event_image}?w=800`);
      add("Home page download on a phone: shell, code, styles, list", kb(shellBytes));
      add(`Home page download: ${events.length} event pictures (WebP, 800 px)`, kb(imageBytes));
      add("Home page download in all", kb(shellBytes + imageBytes));
      const sw = readFileSync(join(dist, "sw.js"), "utf8");
      const precached = [...sw.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1] as string);
      let precacheBytes = 0;
      for (const path of precached) precacheBytes += await wire(`/${path}`);
      add("Service worker precache (once, in the background)", kb(precacheBytes));
    }

    // 3. get-events throughput and latency, next to bare node:http serving the same bytes.
    if (runs("get-events")) {
      const seconds = Number(process.env.BENCH_SECONDS ?? 5);
      await load(`${app}/api/get-events`, { seconds: 1 });
      const ours = await load(`${app}/api/get-events`, { seconds });
      await load(`http://127.0.0.1:${ports.barePort}/`, { seconds: 1 });
      const bare = await load(`http://127.0.0.1:${ports.barePort}/`, { seconds });
      add("get-events throughput (32 connections)", `${ours.rps.toFixed(0)} req/s`, "≥ 50% of bare");
      add("bare node:http, same bytes", `${bare.rps.toFixed(0)} req/s`);
      add("get-events throughput relative to bare node:http", `${((100 * ours.rps) / bare.rps).toFixed(0)}%`, "≥ 50%");
      add("get-events p99 latency / bare p99", `${ours.p99.toFixed(2)} ms / ${bare.p99.toFixed(2)} ms`);
    }

    // 4. Partner photos on the feedback page, from camera-sized uploads.
    if (runs("partners")) {
      const partners = await measurePartnersPage(app, ports.dir);
      add(`Partners page: ${partners.count} partners, JSON + photos`, kb(partners.totalBytes));
      add("Largest partner photo on that page", kb(partners.largestPhoto), "≤ 60 KB");
      add("Camera photo uploaded (for scale)", kb(partners.uploadBytes));
    }

    // 5. Lighthouse, mobile defaults, on the pages a phone opens first.
    if (runs("lighthouse")) {
      const pages = await measureLighthouse(app);
      for (const page of pages ?? []) {
        const { count, lowest, highest } = page.runs;
        const spread =
          count > 1 ? ` (median of ${count} runs; ${lowest === highest ? lowest : `${lowest}–${highest}`})` : "";
        add(
          `Lighthouse ${page.path}: performance / accessibility`,
          `${page.performance} / ${page.accessibility}${spread}`,
          "≥ 98 / 100",
        );
        add(`Lighthouse ${page.path}: LCP / TBT`, `${(page.lcpMs / 1000).toFixed(1)} s / ${page.tbtMs.toFixed(0)} ms`);
      }
      if (!pages) add("Lighthouse", "skipped: no Chromium");
    }
  } finally {
    child?.kill("SIGTERM");
  }
}

// 6. The night's rounds: planning 100 women × 100 men, and re-planning it halfway through.
if (runs("rounds")) {
  const { planRounds, replanRounds } = await import("../api/night/planning/rounds-plan.ts");
  const female = Array.from({ length: 100 }, (_, i) => 1 + i);
  const male = Array.from({ length: 100 }, (_, i) => 1001 + i);
  const medianMs = (work: () => unknown) => {
    const times = Array.from({ length: 5 }, () => {
      const start = performance.now();
      work();
      return performance.now() - start;
    }).sort((x, y) => x - y);
    return `${times[2]!.toFixed(1)} ms`;
  };
  const plan = planRounds({ female, male });
  const [played, planned] = [plan.slice(0, 50), plan.slice(50)];
  const changed = { female: [...female.slice(2), 501, 502], male: [...male.slice(2), 1501, 1502] };
  add(
    "Plan rounds, 100 women × 100 men",
    medianMs(() => planRounds({ female, male })),
  );
  add(
    "Re-plan after round 50, 2 + 2 left and 2 + 2 arrived",
    medianMs(() => replanRounds({ played, planned, ...changed })),
    "≤ 500 ms (the most present a side the planner takes)",
  );
  // With history (docs/decisions/030-nobody-across-the-table-twice.md): 30 + 30 tonight from 80 + 80
  // regulars, after 10 earlier nights of 30 + 30 and 15 rounds each (bench/rounds-history.ts).
  const history = await measureRoundsWithHistory();
  add("Plan 30 × 30 with 10 past nights' history, all 30 rounds", timing(history.uncapped));
  add("Plan 30 × 30 with 10 past nights' history, 15 rounds", timing(history.capped), "< 50 ms");
  add(
    "  of the pairs present who met before, seated again",
    `${history.cappedRepeats} of ${history.metBefore} (only where the numbers force it)`,
  );
  add("plan-rounds on SQLite: 30 × 30, 10 past nights, 15 rounds", timing(history.server), "< 50 ms");
  // Every format on a room of 60 (docs/decisions/035-planners-for-every-format.md).
  for (const row of roundsFormatsRows(measureRoundsFormats())) add(...row);
}

// 7. Seat holds per second with four threads racing for one event's seats in one SQLite file.
if (runs("holds")) {
  const dir = mkdtempSync(join(tmpdir(), "sdt-bench-holds-"));
  const dbPath = join(dir, "app.db");
  const db = openDatabase(dbPath);
  const big = await insertEvent(db, join(dir, "uploads"), { totalSeats: 10_000_000 });
  const small = await insertEvent(db, join(dir, "uploads"), { totalSeats: 100 });
  db.$client.close();
  const race = (eventId: number, seconds: number) =>
    Promise.all(
      Array.from(
        { length: 4 },
        (_, worker) =>
          new Promise<{ held: number; refused: number }>((resolve, reject) => {
            const w = new Worker(new URL("./hold-worker.mjs", import.meta.url), {
              workerData: { dbPath, eventId, seconds, worker },
            });
            w.once("message", resolve);
            w.once("error", reject);
          }),
      ),
    );
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const open = await race(big.id, seconds);
  const held = open.reduce((n, r) => n + r.held, 0);
  add("Seat holds per second, 4 threads, one event", `${(held / seconds).toFixed(0)} holds/s`, "≥ 1,000 holds/s");
  const last = await race(small.id, 2);
  const sold = last.reduce((n, r) => n + r.held, 0);
  add("Last 100 seats, 4 threads racing: seats held", `${sold} of 100`, "exactly 100");
  rmSync(dir, { recursive: true, force: true });
}

// 8. The release: BENCH_BUYERS verified buyers at once (500, then 2,000) for a balanced 40-seat event,
// each sending a 12-megapixel camera photo downscaled as the phone does, and at the first size also the
// original.
if (runs("release")) {
  // BENCH_BUYERS: the sizes of the rush, comma-separated (bench/README.md); issue 38's goals are for 500 and 2,000, issue 47's for 2,000 (p99 ≤ 1 s).
  const sizes = (process.env.BENCH_BUYERS ?? "500,2000")
    .split(",")
    .map(Number)
    .filter((n) => n > 0);
  const goals: Record<number, { lastSeat?: string; loserP99: string }> = {
    500: { lastSeat: "≤ 2 s", loserP99: "p99 ≤ 1 s" },
    2000: { loserP99: "p99 ≤ 1 s" },
  };
  for (const { label, result: r } of await measureRelease(sizes)) {
    const what = `Release, ${r.buyers} buyers for 40 seats, ${label} photo`;
    const goal = label === "downscaled" ? goals[r.buyers] : undefined;
    add(`${what}: seats held / sold out / failed`, `${r.held} / ${r.soldOut} / ${r.failed}`, "40 / rest / 0");
    add(`${what}: time to the last seat held`, `${(r.lastSeatMs / 1000).toFixed(1)} s`, goal?.lastSeat ?? "");
    add(
      `${what}: loser hears sold out after their request, p50 / p99`,
      `${(r.loserP50Ms / 1000).toFixed(1)} s / ${(r.loserP99Ms / 1000).toFixed(1)} s`,
      goal?.loserP99 ?? "",
    );
    add(`${what}: loser hears sold out, p99 from the rush's start`, `${(r.loserP99FromStartMs / 1000).toFixed(1)} s`);
    add(`${what}: every winner's photo stored, from the rush's start`, `${(r.photosStoredMs / 1000).toFixed(1)} s`);
    add(`${what}: server CPU, until the photos are stored`, `${r.cpuSeconds.toFixed(1)} s`);
    add(`${what}: bytes uploaded per buyer`, kb(r.bytesPerBuyer));
  }
}

// 9. The room in step (issue 38, part 3): 200 phones on one event's stream, from Next to the last of
// them reading it, and the server's memory while they stay connected (bench/room.ts).
if (runs("room")) {
  const room = await measureRoom();
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  add(
    `Room fan-out: Next to the last of ${room.phones} phones, p50 / p99 (${room.nexts} Nexts)`,
    `${ms(percentile(room.lastPhoneMs, 50))} / ${ms(percentile(room.lastPhoneMs, 99))}`,
    "≤ 1 s",
  );
  add(
    "Room fan-out: Next to each phone, p50 / p99",
    `${ms(percentile(room.eachPhoneMs, 50))} / ${ms(percentile(room.eachPhoneMs, 99))}`,
  );
  // Every sample on the console, so a slow climb shows even where first and last happen to agree.
  for (const s of room.samples)
    console.log(`  room sample at ${s.at.toFixed(0)} s: heap ${s.heapMb.toFixed(1)} MB, RSS ${s.rssMb.toFixed(0)} MB`);
  const [first, last] = [room.samples[0]!, room.samples.at(-1)!];
  const heaps = room.samples.map((s) => s.heapMb);
  add(
    `Room: ${room.phones} phones held ${room.holdSeconds} s, server heap after GC, first → last (range)`,
    `${first.heapMb.toFixed(1)} → ${last.heapMb.toFixed(1)} MB (${Math.min(...heaps).toFixed(1)}–${Math.max(...heaps).toFixed(1)})`,
    "no growth",
  );
  add("Room: server RSS, first → last", `${first.rssMb.toFixed(0)} → ${last.rssMb.toFixed(0)} MB`);
  add("Room: stream listeners once every phone hung up", String(room.subscribersAfter), "0");
}

// 10. The reports over five years of a busy organiser (issue 51), through their route (bench/reports.ts).
if (runs("reports")) {
  const { measureReports, reportsRows } = await import("./reports.ts");
  for (const row of reportsRows(await measureReports())) add(...row);
}

const out = join(root, "bench", "results.md");
const line = (r: readonly string[]) => `| ${r.join(" | ")} |`;
// The file's "## History" section (how the figures got here, decision 007) is kept as it is by every run.
const previous = existsSync(out) ? readFileSync(out, "utf8") : "";
const historyAt = previous.indexOf("\n## History");
const history = historyAt >= 0 ? previous.slice(historyAt) : "";
if (only.size === 0) {
  const table = ["| Measure | Result | Target |", "| --- | --- | --- |", ...rows.map(line)].join("\n");
  writeFileSync(
    out,
    `# Benchmark results\n\nMeasured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}, ${(await import("node:os")).cpus().length} cores). Shared machines are noisy: compare figures from one run, not across runs.${process.env.BENCH_NOTE ? ` ${process.env.BENCH_NOTE}` : ""}\n\n${table}\n${history}`,
  );
} else {
  // Only some parts ran: each part's rows replace its old ones in place (where the first of them
  // stood, or at the end), the other rows keep the full run's figures, and a note under the heading
  // says which rows are newer (replacing an older note about the same parts).
  const measure = (l: string) => l.split(" | ")[0]?.replace(/^\| /, "") ?? "";
  const partOf = (what: string) => [...only].find((part) => PARTS[part].test(what));
  let lines = (historyAt >= 0 ? previous.slice(0, historyAt) : previous).trimEnd().split("\n");
  for (const part of only) {
    const mine = (l: string) => l.startsWith("| ") && partOf(measure(l)) === part;
    const at = lines.findIndex(mine);
    lines = lines.filter((l) => !mine(l));
    const insertAt = at >= 0 ? at : lines.findLastIndex((l) => l.startsWith("| ")) + 1;
    lines.splice(insertAt, 0, ...rows.filter(([what]) => partOf(what) === part).map(line));
  }
  const noteStart = "rows are from `npm run bench --";
  const parts = [...only];
  lines = lines.filter((l) => {
    const named = l.match(/^The (.+) rows are from `npm run bench --/)?.[1]?.split(", ");
    return !(l.includes(noteStart) && named?.every((part) => only.has(part as Part)));
  });
  const cores = (await import("node:os")).cpus().length;
  const note = `The ${parts.join(", ")} ${noteStart} ${parts.join(" ")}\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}, ${cores} cores).${process.env.BENCH_NOTE ? ` ${process.env.BENCH_NOTE}` : ""}`;
  lines.splice(
    lines.findIndex((l) => l.startsWith("| ")),
    0,
    note,
    "",
  );
  writeFileSync(out, `${lines.join("\n")}\n${history}`);
}
console.log(`\nwritten to ${out}`);
