import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../../db/client.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { dbState, folderState } from "../../test/suites/db-state.ts";
import { parseEnv } from "../env.ts";
import type { Logger } from "../lib/log.ts";
import { createSmsProvider } from "../providers/sms/index.ts";
import { BackupError, createBackup, listBackups, readManifest, restoreBackup } from "./backup.ts";
import { backgroundJobs } from "./jobs.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse("2026-03-01T02:00:00.000Z");

let dir: string;
let db: Db;
const logged: string[] = [];
const log: Logger = (_level, message) => logged.push(message);

function setup(extraEnv: Record<string, string> = {}) {
  const env = parseEnv({
    NODE_ENV: "test",
    DATABASE_PATH: join(dir, "data", "app.db"),
    UPLOADS_DIR: join(dir, "data", "uploads"),
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
    BACKUP_DIR: join(dir, "backups"),
    ...extraEnv,
  });
  db ??= openDatabase(env.DATABASE_PATH);
  return env;
}

/** The scheduler's backup job, as server.ts builds it: a new list per call is a restarted server. */
function backupJob(env: ReturnType<typeof setup>) {
  const now = () => T0;
  const { sms } = createSmsProvider(env, db, log, now);
  const job = backgroundJobs({ db, env, sms, log, now }).find((j) => j.name === "backup");
  if (!job) throw new Error("no backup job in api/services/jobs.ts");
  return job;
}

const createdTimes = async (root: string) => (await listBackups(root)).map((b) => b.manifest.createdAt).sort();
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "sdt-backup-"));
  logged.length = 0;
});
afterEach(() => {
  db?.$client.close();
  db = undefined as unknown as Db;
  rmSync(dir, { recursive: true, force: true });
});

describe("the scheduled backup", () => {
  it("makes one every BACKUP_EVERY_HOURS and keeps the newest BACKUP_KEEP as the clock moves", async () => {
    const env = setup({ BACKUP_EVERY_HOURS: "24", BACKUP_KEEP: "3" });
    const root = env.BACKUP_DIR!;
    const event = await insertEvent(db, env.UPLOADS_DIR, { name: "Backed Up Mixer" });
    // Things in the backup folder that are not backups are never touched.
    mkdirSync(join(root, "keep-me"), { recursive: true });
    writeFileSync(join(root, "notes.txt"), "the organiser's own notes");
    // What a backup interrupted by a crash leaves (its process is gone) is cleared away.
    mkdirSync(join(root, ".incomplete-2026-02-01T00-00-00-000Z-2147483646"));

    const job = backupJob(env);
    await job.run(T0);
    await job.run(T0 + HOUR);
    // A restart reads "due" from the folder, so starting again does not add one.
    await backupJob(env).run(T0 + 23 * HOUR);
    expect(await createdTimes(root)).toEqual([new Date(T0).toISOString()]);

    for (let day = 1; day <= 5; day++) {
      insertPaidBookings(db, event.id, 1);
      await backupJob(env).run(T0 + day * DAY);
      await backupJob(env).run(T0 + day * DAY + 6 * HOUR);
    }
    expect(await createdTimes(root)).toEqual([3, 4, 5].map((d) => new Date(T0 + d * DAY).toISOString()));
    const newest = (await listBackups(root))[0]!.manifest;
    expect(newest.counts).toEqual({ events: 1, paidBookings: 5 });
    // The event's picture and its thumbnail.
    expect(newest.uploads.count).toBe(2);
    expect(readdirSync(root).sort()).toEqual([
      "2026-03-04T02-00-00-000Z",
      "2026-03-05T02-00-00-000Z",
      "2026-03-06T02-00-00-000Z",
      "keep-me",
      "notes.txt",
    ]);
    expect(logged.filter((m) => m === "backup written")).toHaveLength(6);
  });

  it("does nothing without BACKUP_DIR", async () => {
    const env = setup({ BACKUP_DIR: "" });
    expect(env.BACKUP_DIR).toBeUndefined();
    await backupJob(env).run(T0);
    expect(readdirSync(dir)).toEqual(["data"]);
  });
});

describe("a backup and its restore", () => {
  async function backedUp() {
    const env = setup();
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const paid = insertPaidBookings(db, event.id, 7);
    const backup = await createBackup({
      sqlite: db.$client,
      uploadsDir: env.UPLOADS_DIR,
      root: env.BACKUP_DIR!,
      now: T0,
    });
    return { env, event, paid, backup };
  }

  it("writes one self-contained database file whose checksum and counts are in the manifest", async () => {
    const { backup } = await backedUp();
    const files = readdirSync(backup.folder).sort();
    expect(files).toEqual(["app.db", "manifest.json", "uploads"]);
    const manifest = await readManifest(backup.folder);
    expect(manifest.database.sha256).toBe(sha256(join(backup.folder, "app.db")));
    expect(manifest.counts).toEqual({ events: 1, paidBookings: 7 });
    expect(manifest.uploads.files.map((f) => f.name)).toEqual(readdirSync(join(backup.folder, "uploads")).sort());
  });

  it("is readable by the server's account only, like the data folder it copies", async () => {
    const { backup } = await backedUp();
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(backup.folder)).toBe(0o700);
    expect(mode(join(backup.folder, "app.db"))).toBe(0o600);
    expect(mode(join(backup.folder, "manifest.json"))).toBe(0o600);
    for (const file of readdirSync(join(backup.folder, "uploads"))) {
      expect(mode(join(backup.folder, "uploads", file)), file).toBe(0o600);
    }
  });

  it("restores into an empty folder: every row and every upload, checked", async () => {
    const { env, backup } = await backedUp();
    const target = join(dir, "restored");
    const manifest = await restoreBackup({
      folder: backup.folder,
      databasePath: join(target, "app.db"),
      uploadsDir: join(target, "uploads"),
      force: false,
    });
    expect(manifest.counts.paidBookings).toBe(7);
    const restored = new Database(join(target, "app.db"), { readonly: true });
    try {
      expect(dbState(restored)).toEqual(dbState(db.$client));
      expect(restored.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      restored.close();
    }
    expect(folderState(join(target, "uploads"))).toEqual(folderState(env.UPLOADS_DIR));
  });

  it("refuses a target that holds data unless forced, and then replaces it whole", async () => {
    const { env, backup } = await backedUp();
    const before = sha256(env.DATABASE_PATH);
    const into = { folder: backup.folder, databasePath: env.DATABASE_PATH, uploadsDir: env.UPLOADS_DIR };
    await expect(restoreBackup({ ...into, force: false })).rejects.toThrow(/not empty.*--force/);
    expect(sha256(env.DATABASE_PATH)).toBe(before);

    // Forced: the live database is closed first, as the README says (stop the server).
    db.$client.close();
    writeFileSync(join(env.UPLOADS_DIR, "stray.jpg"), "not from the backup");
    await restoreBackup({ ...into, force: true });
    expect(existsSync(`${env.DATABASE_PATH}-wal`)).toBe(false);
    expect(folderState(env.UPLOADS_DIR)).not.toContain("stray.jpg");
    db = openDatabase(env.DATABASE_PATH);
    expect(db.$client.prepare("select count(*) from bookings where status = 'paid'").pluck().get()).toBe(7);
  });

  it("refuses a damaged backup before touching the target", async () => {
    const { backup } = await backedUp();
    const copy = join(backup.folder, "app.db");
    const bytes = readFileSync(copy);
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0xff;
    writeFileSync(copy, bytes);
    const target = join(dir, "restored");
    const attempt = restoreBackup({
      folder: backup.folder,
      databasePath: join(target, "app.db"),
      uploadsDir: join(target, "uploads"),
      force: false,
    });
    await expect(attempt).rejects.toBeInstanceOf(BackupError);
    await expect(attempt).rejects.toThrow(/sha256/);
    expect(existsSync(target)).toBe(false);
  });

  it("refuses a backup whose uploads are incomplete", async () => {
    const { backup } = await backedUp();
    const [first] = readdirSync(join(backup.folder, "uploads"));
    rmSync(join(backup.folder, "uploads", first!));
    const target = join(dir, "restored");
    await expect(
      restoreBackup({
        folder: backup.folder,
        databasePath: join(target, "app.db"),
        uploadsDir: join(target, "uploads"),
        force: false,
      }),
    ).rejects.toThrow(/lack 1 of the manifest's 2 files/);
  });
});
