import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { insertEvent } from "./fixtures.ts";

// docs/decisions/007-scale.md: several server processes on one SQLite file. Four processes open a
// brand-new file at the same moment (the WAL switch and the migrations race), then race for the seats
// of one balanced event. A busy database must make them wait, never fail: every attempt either holds
// a seat or is refused with a code, and the seats go to exactly as many buyers as there are.

const here = import.meta.dirname;
const children: ChildProcess[] = [];
let dir = "";

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Report = { held: number; refused: Record<string, number>; unexpected: string[] };

/** A child process of test/hold-race-process.ts, with a way to send a line and await a reply line. */
function startProcess(dbPath: string, worker: number) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(here, "hold-race-process.ts"), dbPath, String(worker)],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  children.push(child);
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`process ${worker} exited with ${child.exitCode}`);
    return value as string;
  };
  return {
    next,
    send: (line: string) => child.stdin!.write(`${line}\n`),
  };
}

it("four processes opening one new file and racing for 100 seats hold exactly 100, and none sees SQLITE_BUSY", async () => {
  dir = mkdtempSync(join(tmpdir(), "sdt-hold-processes-"));
  const dbPath = join(dir, "app.db");
  const processes = Array.from({ length: 4 }, (_, worker) => startProcess(dbPath, worker));
  for (const p of processes) expect(await p.next()).toBe("ready");
  for (const p of processes) p.send("open");
  for (const p of processes) expect(await p.next()).toBe("open");

  const db = openDatabase(dbPath);
  const event = await insertEvent(db, join(dir, "uploads"), { totalSeats: 100, seatsMale: 50, seatsFemale: 50 });
  db.$client.close();
  for (const p of processes) p.send(`go ${event.id} 150`);
  const reports = await Promise.all(processes.map(async (p) => JSON.parse(await p.next()) as Report));

  expect(reports.flatMap((r) => r.unexpected)).toEqual([]);
  expect(reports.reduce((n, r) => n + r.held, 0)).toBe(100);
  const refusals = reports.flatMap((r) => Object.entries(r.refused));
  for (const [code] of refusals) expect(["sold_out", "gender_sold_out"]).toContain(code);
  expect(refusals.reduce((n, [, count]) => n + count, 0)).toBe(4 * 150 - 100);
}, 120_000);
