import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../db/client.ts";
import { asUnsignedBackup, tamperWithBackup } from "../test/backups.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";
import { folderState, integrity } from "../test/suites/db-state.ts";
import { startAppServer } from "./harness.ts";

// `npm run backup` while bookings are being written, and `npm run restore` into an empty folder, run
// as docs/operations.md tells an organiser to run them: the scripts as separate processes, configured only
// through the environment, against a database another process is writing to.

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Runs `npm run <script> -- args` the way npm does (node build/<script>.js, compiled by `npm run build`). */
function runScript(script: "backup" | "restore", args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [`build/${script}.js`, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "development", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, stdout, stderr })),
  );
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const paidRows = (sqlite: Database.Database) =>
  sqlite.prepare("select * from bookings where status = 'paid' order by id").all() as { id: number }[];

// Its own server, not the `server` fixture (e2e/fixtures.ts): the server here is started on the folder
// `npm run restore` wrote, after the backup and restore processes this suite is about have run.
describe("npm run backup and npm run restore", () => {
  let dir: string;
  let db: Db;
  let eventId: number;
  const secret = { SESSION_SECRET: "backup-secret-backup-secret-backup-1234" };
  let live: Record<string, string>;
  let target: Record<string, string>;
  let backupFolder: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sdt-backup-e2e-"));
    live = { ...secret, DATABASE_PATH: join(dir, "live", "app.db"), UPLOADS_DIR: join(dir, "live", "uploads") };
    target = {
      ...secret,
      DATABASE_PATH: join(dir, "restored", "app.db"),
      UPLOADS_DIR: join(dir, "restored", "uploads"),
    };
    db = openDatabase(live.DATABASE_PATH!);
    eventId = (await insertEvent(db, live.UPLOADS_DIR!, { name: "Busy Release", totalSeats: 100_000 })).id;
    await insertEvent(db, live.UPLOADS_DIR!, { name: "Quiet Tuesday" });
    insertPaidBookings(db, eventId, 25);
  });
  afterAll(() => {
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("takes a consistent backup while bookings are being written", async () => {
    const before = paidRows(db.$client).length;
    // A writer that keeps booking seats, one transaction each, for as long as the backup runs.
    let writing = true;
    const writer = (async () => {
      while (writing) {
        db.transaction(() => insertPaidBookings(db, eventId, 1));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const result = await runScript("backup", [join(dir, "backups")], live);
    writing = false;
    await writer;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^backup written to /);

    const after = paidRows(db.$client).length;
    const [name, ...others] = readdirSync(join(dir, "backups"));
    expect(others).toEqual([]);
    backupFolder = join(dir, "backups", name!);
    const manifest = JSON.parse(readFileSync(join(backupFolder, "manifest.json"), "utf8"));
    // The snapshot fell in the middle of the writing: bookings came before it and after it.
    expect(manifest.counts.paidBookings).toBeGreaterThan(before);
    expect(manifest.counts.paidBookings).toBeLessThan(after);
    expect(manifest.counts.events).toBe(2);
    expect(manifest.database.sha256).toBe(sha256(join(backupFolder, "app.db")));
  });

  it("restores into an empty folder with every paid booking of the snapshot, integrity ok", async () => {
    const result = await runScript("restore", [backupFolder], target);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/integrity_check and counts verified\. Done\./);

    const manifest = JSON.parse(readFileSync(join(backupFolder, "manifest.json"), "utf8"));
    const restored = new Database(target.DATABASE_PATH!, { readonly: true });
    try {
      expect(integrity(restored)).toEqual({ integrity: ["ok"], foreignKeys: [] });
      // Exactly the bookings written before the snapshot, each one byte for byte: no gap, no torn write.
      const original = paidRows(db.$client).slice(0, manifest.counts.paidBookings);
      expect(paidRows(restored)).toEqual(original);
    } finally {
      restored.close();
    }
    expect(folderState(target.UPLOADS_DIR!)).toEqual(folderState(live.UPLOADS_DIR!));
    for (const name of folderState(target.UPLOADS_DIR!)) {
      expect(sha256(join(target.UPLOADS_DIR!, name))).toBe(sha256(join(live.UPLOADS_DIR!, name)));
    }
  });

  it("refuses to restore over data without --force, and replaces it with --force", async () => {
    const before = sha256(target.DATABASE_PATH!);
    const refused = await runScript("restore", [backupFolder], target);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/restore refused: the target is not empty .*--force/);
    expect(sha256(target.DATABASE_PATH!)).toBe(before);

    const forced = await runScript("restore", [backupFolder, "--force"], target);
    expect(forced.code, forced.stderr).toBe(0);
    expect(sha256(target.DATABASE_PATH!)).toBe(sha256(join(backupFolder, "app.db")));
  });

  it("refuses an edited backup whose sha256 was recomputed, even with --unsigned, and changes nothing", async () => {
    const tampered = join(dir, "tampered");
    cpSync(backupFolder, tampered, { recursive: true });
    tamperWithBackup(tampered);
    const fresh = {
      ...secret,
      DATABASE_PATH: join(dir, "fresh", "app.db"),
      UPLOADS_DIR: join(dir, "fresh", "uploads"),
    };
    for (const args of [[tampered], [tampered, "--unsigned"]]) {
      const refused = await runScript("restore", args, fresh);
      expect(refused.code, args.join(" ")).toBe(1);
      expect(refused.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(/^restore refused: .*signature/)]);
      expect(refused.stdout).toBe("");
    }
    expect(existsSync(join(dir, "fresh"))).toBe(false);
  });

  it("restores a backup made before signing only with --unsigned", async () => {
    const old = join(dir, "unsigned");
    cpSync(backupFolder, old, { recursive: true });
    asUnsignedBackup(old);
    const fresh = {
      ...secret,
      DATABASE_PATH: join(dir, "fresh", "app.db"),
      UPLOADS_DIR: join(dir, "fresh", "uploads"),
    };
    const refused = await runScript("restore", [old], fresh);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(/^restore refused: .*--unsigned/)]);
    expect(existsSync(join(dir, "fresh"))).toBe(false);

    const accepted = await runScript("restore", [old, "--unsigned"], fresh);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/integrity_check and counts verified\. Done\./);
    expect(sha256(fresh.DATABASE_PATH)).toBe(sha256(join(backupFolder, "app.db")));
  });

  it("gives a restored folder the server starts on and serves from", async () => {
    const server = await startAppServer({ SEED_DEMO: "0", ...secret }, join(dir, "restored"));
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const events = (await (await fetch(`${server.url}/api/get-events`)).json()) as { event_name?: string }[];
      expect(events.map((e) => e.event_name).sort()).toEqual(["Busy Release", "Quiet Tuesday"]);
    } finally {
      await server.stop();
    }
  });
});
