import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../api/app.ts";
import { createAppDeps } from "../api/deps.ts";
import { parseEnv } from "../api/env.ts";
import { guestKeyOf } from "../api/lib/guest-key.ts";
import { silentLogger } from "../api/lib/log.ts";
import { openDatabase } from "../db/client.ts";
import { SEED, type Seeded, seedFiveYears } from "./reports-seed.ts";

// The reports over five years of a busy organiser (issue 51, "Speed"): every report asked for the
// whole five years, as the organiser's Reports tab asks, through the real route: the app in this
// process (as production builds it: replies not checked against their schemas), an owner's session
// cookie, `GET /api/reports/{name}?from=…&to=…` with a browser's Accept-Encoding, the body read to
// its end. What is left out is the network between the phone and the server. Each report once to
// warm up, then RUNS times; the median and the 95th percentile of the wall time, and the median of
// this process's CPU time (on a shared machine the wall time also counts the waits for a core).
// Measures, never asserts.

export const REPORTS = ["money", "gst", "seats", "nights", "matches", "returning", "prices", "invitations"] as const;
const RUNS = 20;
const PASSWORD = "bench-reports-password";
const BASE = "http://127.0.0.1";

export type ReportTiming = {
  name: string;
  medianMs: number;
  p95Ms: number;
  /** This process's CPU time for the request, median: the machine's other work does not count in it. */
  cpuMs: number;
  rows: number;
  bytes: number;
};

export async function measureReports(): Promise<{ seeded: Seeded; seedMs: number; timings: ReportTiming[] }> {
  const dir = mkdtempSync(join(tmpdir(), "sdt-bench-reports-"));
  try {
    const env = parseEnv({
      NODE_ENV: "test",
      DATABASE_PATH: join(dir, "app.db"),
      UPLOADS_DIR: join(dir, "uploads"),
      ADMIN_PASSWORD: PASSWORD,
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret-00",
      PUBLIC_BASE_URL: BASE,
      EVENT_TIME_ZONE: SEED.zone,
      GST_REGISTERED: "1",
    });
    const db = openDatabase(env.DATABASE_PATH);
    const started = performance.now();
    const seeded = seedFiveYears(db, (phone) => guestKeyOf(env, phone));
    const seedMs = performance.now() - started;
    const app = createApp({ ...createAppDeps({ db, env, log: silentLogger, now: Date.now }), checkReplies: false });

    const login = await app.request(`${BASE}/api/admin-login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE },
      body: JSON.stringify({ password: PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`admin-login answered ${login.status}`);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const ask = async (name: string) => {
      const response = await app.request(`${BASE}/api/reports/${name}?from=${SEED.from}&to=${SEED.to}`, {
        headers: { cookie, "accept-encoding": "br, gzip" },
      });
      const body = await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${name} answered ${response.status}`);
      return body.byteLength;
    };

    const timings: ReportTiming[] = [];
    for (const name of REPORTS) {
      // The rows as the organiser gets them (uncompressed), to show the answer is the whole period's.
      const plain = await app.request(`${BASE}/api/reports/${name}?from=${SEED.from}&to=${SEED.to}`, {
        headers: { cookie },
      });
      const rows = ((await plain.json()) as { rows: unknown[] }).rows.length;
      const times: number[] = [];
      const cpu: number[] = [];
      let bytes = 0;
      for (let run = 0; run < RUNS; run++) {
        const used = process.cpuUsage();
        const t = performance.now();
        bytes = await ask(name);
        times.push(performance.now() - t);
        const { user, system } = process.cpuUsage(used);
        cpu.push((user + system) / 1000);
      }
      const median = (list: number[]) => {
        const sorted = [...list].sort((a, b) => a - b);
        return (sorted[RUNS / 2 - 1]! + sorted[RUNS / 2]!) / 2;
      };
      timings.push({
        name,
        medianMs: median(times),
        p95Ms: [...times].sort((a, b) => a - b)[Math.ceil(0.95 * RUNS) - 1]!,
        cpuMs: median(cpu),
        rows,
        bytes,
      });
    }
    db.$client.close();
    return { seeded, seedMs, timings };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows bench/run.ts writes: one a report, and one saying what was seeded. */
export function reportsRows({ seeded, seedMs, timings }: Awaited<ReturnType<typeof measureReports>>) {
  const n = (x: number) => x.toLocaleString("en-AU");
  const rows: [string, string, string][] = [
    [
      "Reports bench data, 5 years (2020-07 to 2025-06)",
      `${n(seeded.events)} events, ${n(seeded.bookings)} bookings, ${n(seeded.ratings)} ratings, ${n(seeded.repeatGuests)} repeat guests (seeded in ${(seedMs / 1000).toFixed(1)} s)`,
      "",
    ],
  ];
  for (const t of timings)
    rows.push([
      `Report ${t.name}, 5 years (${n(t.rows)} rows, ${(t.bytes / 1024).toFixed(1)} KB on the wire)`,
      `${t.medianMs.toFixed(0)} ms (median of ${RUNS}; p95 ${t.p95Ms.toFixed(0)} ms; CPU ${t.cpuMs.toFixed(0)} ms)`,
      "≤ 250 ms",
    ]);
  return rows;
}
