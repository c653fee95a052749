import { existsSync } from "node:fs";
import { chmod, mkdir, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type Database from "better-sqlite3";
import type { Db } from "../../db/client.ts";
import { backupTo } from "../../db/sqlite.ts";
import type { Env } from "../env.ts";
import type { Logger } from "../lib/log.ts";
import { copyUploads, inspectDatabase, listUploads, regularFileDigest } from "./backup-files.ts";
import {
  type Backup,
  BackupError,
  DATABASE_FILE,
  listBackups,
  newManifest,
  UPLOADS_FOLDER,
  writeManifest,
} from "./backup-manifest.ts";

// Making backups: one now, the scheduler's one when due, and pruning the old ones
// (docs/decisions/006-operations.md). A backup is written under a dot-name and renamed into place
// last, so a folder that looks like a backup is one.

const INCOMPLETE = ".incomplete-";
const HOUR = 3_600_000;

/**
 * Writes a new backup folder under `root`: the database through SQLite's online backup API (a
 * consistent snapshot, safe while this or another process writes), then the uploads. Images are
 * stored before the rows that name them, so copying the database first means every image it names
 * is already on disk when the uploads are copied. `leftOut` names what UPLOADS_DIR holds that is
 * not a stored upload (links, folders, other files): never copied, and worth a look.
 */
export async function createBackup(input: {
  sqlite: Database.Database;
  uploadsDir: string;
  root: string;
  now: number;
  /** SESSION_SECRET: signs the manifest, and is never written into the backup. */
  secret: string;
}): Promise<Backup & { leftOut: string[] }> {
  // A backup holds everything the data folder does: readable by the server's account only (decision 012).
  await mkdir(input.root, { recursive: true, mode: 0o700 });
  const name = await freeName(input.root, folderName(input.now));
  const staging = join(input.root, `${INCOMPLETE}${name}-${process.pid}`);
  await mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    const copy = join(staging, DATABASE_FILE);
    await backupTo(input.sqlite, copy);
    await chmod(copy, 0o600);
    const { counts, integrity } = inspectDatabase(copy, { makeSelfContained: true });
    if (integrity !== "ok") throw new BackupError(`the copy fails PRAGMA integrity_check: ${integrity}`);
    const database = await regularFileDigest(copy);
    if (!database) throw new BackupError(`the copy ${copy} is not a regular file`);
    // Only stored uploads that are regular files: a link would copy whatever it points at.
    const uploads = await listUploads(input.uploadsDir);
    const files = await copyUploads(input.uploadsDir, join(staging, UPLOADS_FOLDER), uploads.stored);
    const manifest = newManifest({ now: input.now, database, counts, files, secret: input.secret });
    await writeManifest(staging, manifest);
    const folder = join(input.root, name);
    await rename(staging, folder);
    return { folder, manifest, leftOut: uploads.other };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Keeps the newest `keep` backups and deletes the rest, plus what an interrupted backup left
 * behind. Only folders this code wrote are touched: anything else in the root is left alone.
 */
export async function pruneBackups(root: string, keep: number): Promise<string[]> {
  const removed: string[] = [];
  for (const { folder } of (await listBackups(root)).slice(keep)) {
    await rm(folder, { recursive: true, force: true });
    removed.push(folder);
  }
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const pid = Number(/^\.incomplete-.+-(\d+)$/.exec(name)?.[1]);
    if (pid && !isRunning(pid)) await rm(join(root, name), { recursive: true, force: true });
  }
  return removed;
}

/**
 * The scheduler's backup job: with BACKUP_DIR set, writes a backup when the newest one there is
 * BACKUP_EVERY_HOURS old (or there is none), then keeps the newest BACKUP_KEEP. "Due" is read from
 * the folder itself, so a restart never makes an extra one, and tests move the clock through `now`.
 */
export async function backupIfDue(
  deps: {
    db: Pick<Db, "$client">;
    env: Pick<Env, "BACKUP_DIR" | "BACKUP_EVERY_HOURS" | "BACKUP_KEEP" | "SESSION_SECRET" | "UPLOADS_DIR">;
    log: Logger;
  },
  now: number,
): Promise<Backup | undefined> {
  const root = deps.env.BACKUP_DIR;
  if (!root) return undefined;
  const [newest] = await listBackups(root);
  if (newest && now - Date.parse(newest.manifest.createdAt) < deps.env.BACKUP_EVERY_HOURS * HOUR) return undefined;
  const backup = await createBackup({
    sqlite: deps.db.$client,
    uploadsDir: deps.env.UPLOADS_DIR,
    root,
    now,
    secret: deps.env.SESSION_SECRET,
  });
  const removed = await pruneBackups(root, deps.env.BACKUP_KEEP);
  deps.log("info", "backup written", {
    folder: backup.folder,
    events: backup.manifest.counts.events,
    paidBookings: backup.manifest.counts.paidBookings,
    uploads: backup.manifest.uploads.count,
    removed: removed.length,
  });
  if (backup.leftOut.length > 0) {
    deps.log("warn", "backup left out what is not a stored upload", {
      uploadsDir: deps.env.UPLOADS_DIR,
      count: backup.leftOut.length,
      names: backup.leftOut.slice(0, 5),
    });
  }
  return backup;
}

/** `2026-11-22T10-30-00-000Z`: sorts as it reads, and is a valid folder name everywhere. */
function folderName(now: number): string {
  return new Date(now).toISOString().replaceAll(":", "-").replace(".", "-");
}

async function freeName(root: string, base: string): Promise<string> {
  for (let i = 0; ; i++) {
    const name = i === 0 ? base : `${base}-${i}`;
    if (!existsSync(join(root, name))) return name;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
