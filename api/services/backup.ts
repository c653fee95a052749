import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { chmod, copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import Database from "better-sqlite3";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import type { Env } from "../env.ts";
import type { Logger } from "../lib/log.ts";

// Backups and restores (docs/decisions/006-operations.md). A backup is a folder under the backup
// root holding a consistent copy of the database, a copy of the uploads and manifest.json; it is
// written under a dot-name and renamed into place last, so a folder that looks like a backup is one.

const MANIFEST = "manifest.json";
const DATABASE_FILE = "app.db";
const UPLOADS_FOLDER = "uploads";
const INCOMPLETE = ".incomplete-";
const FORMAT = "speed-dating-tickets-backup/1";
const HOUR = 3_600_000;

const manifestSchema = z.object({
  format: z.literal(FORMAT),
  createdAt: z.iso.datetime(),
  database: z.object({
    file: z.literal(DATABASE_FILE),
    bytes: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[a-f0-9]{64}$/),
  }),
  counts: z.object({ events: z.number().int().nonnegative(), paidBookings: z.number().int().nonnegative() }),
  uploads: z.object({
    folder: z.literal(UPLOADS_FOLDER),
    count: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    files: z.array(z.object({ name: z.string().min(1), bytes: z.number().int().nonnegative() })),
  }),
});

export type BackupManifest = z.infer<typeof manifestSchema>;
export type Backup = { folder: string; manifest: BackupManifest };

/** A backup or restore that cannot go on; the message is for the person running it. */
export class BackupError extends Error {}

/**
 * Writes a new backup folder under `root`: the database through SQLite's online backup API (a
 * consistent snapshot, safe while this or another process writes), then the uploads. Images are
 * stored before the rows that name them, so copying the database first means every image it names
 * is already on disk when the uploads are copied.
 */
export async function createBackup(input: {
  sqlite: Database.Database;
  uploadsDir: string;
  root: string;
  now: number;
}): Promise<Backup> {
  // A backup holds everything the data folder does: readable by the server's account only (decision 012).
  await mkdir(input.root, { recursive: true, mode: 0o700 });
  const name = await freeName(input.root, folderName(input.now));
  const staging = join(input.root, `${INCOMPLETE}${name}-${process.pid}`);
  await mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    const copy = join(staging, DATABASE_FILE);
    // One step copies every page under one read transaction: a consistent snapshot that another
    // process's writes cannot make restart (in WAL mode they are not blocked while it reads).
    await input.sqlite.backup(copy, { progress: () => 0x7fffffff });
    await chmod(copy, 0o600);
    const { counts, integrity } = inspectDatabase(copy, { makeSelfContained: true });
    if (integrity !== "ok") throw new BackupError(`the copy fails PRAGMA integrity_check: ${integrity}`);
    const database = { file: DATABASE_FILE, ...(await fileDigest(copy)) } as const;
    const files = await copyTree(input.uploadsDir, join(staging, UPLOADS_FOLDER));
    const manifest: BackupManifest = {
      format: FORMAT,
      createdAt: new Date(input.now).toISOString(),
      database,
      counts,
      uploads: {
        folder: UPLOADS_FOLDER,
        count: files.length,
        bytes: files.reduce((sum, f) => sum + f.bytes, 0),
        files,
      },
    };
    await writeFile(join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    const folder = join(input.root, name);
    await rename(staging, folder);
    return { folder, manifest };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** The complete backups under `root`, newest first. Folders without a readable manifest are not backups. */
export async function listBackups(root: string): Promise<Backup[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const found: Backup[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const folder = join(root, name);
    const manifest = await readManifest(folder).catch(() => undefined);
    if (manifest) found.push({ folder, manifest });
  }
  return found.sort((a, b) => Date.parse(b.manifest.createdAt) - Date.parse(a.manifest.createdAt));
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
    env: Pick<Env, "BACKUP_DIR" | "BACKUP_EVERY_HOURS" | "BACKUP_KEEP" | "UPLOADS_DIR">;
    log: Logger;
  },
  now: number,
): Promise<Backup | undefined> {
  const root = deps.env.BACKUP_DIR;
  if (!root) return undefined;
  const [newest] = await listBackups(root);
  if (newest && now - Date.parse(newest.manifest.createdAt) < deps.env.BACKUP_EVERY_HOURS * HOUR) return undefined;
  const backup = await createBackup({ sqlite: deps.db.$client, uploadsDir: deps.env.UPLOADS_DIR, root, now });
  const removed = await pruneBackups(root, deps.env.BACKUP_KEEP);
  deps.log("info", "backup written", {
    folder: backup.folder,
    events: backup.manifest.counts.events,
    paidBookings: backup.manifest.counts.paidBookings,
    uploads: backup.manifest.uploads.count,
    removed: removed.length,
  });
  return backup;
}

/**
 * Restores a backup folder into `databasePath` and `uploadsDir`. The backup is checked before
 * anything is written (checksum, integrity_check, counts, every upload present) and the result is
 * checked again after. A target that already holds a database or uploads is refused unless `force`.
 * The server must be stopped: a running server would keep writing to the file it has open.
 */
export async function restoreBackup(input: {
  folder: string;
  databasePath: string;
  uploadsDir: string;
  force: boolean;
}): Promise<BackupManifest> {
  const manifest = await readManifest(input.folder).catch((error: unknown) => {
    throw new BackupError(`${input.folder} is not a backup folder (${MANIFEST}: ${reason(error)})`);
  });
  const copy = join(input.folder, DATABASE_FILE);
  const sourceUploads = join(input.folder, UPLOADS_FOLDER);
  await verifyDatabase(copy, manifest, "the backup's database");
  await verifyUploads(sourceUploads, manifest, "the backup's uploads");

  const occupied = [
    ...[input.databasePath, `${input.databasePath}-wal`].filter((f) => existsSync(f)),
    ...((await listFiles(input.uploadsDir)).length > 0 ? [input.uploadsDir] : []),
  ];
  if (occupied.length > 0 && !input.force) {
    throw new BackupError(`the target is not empty (${occupied.join(", ")}): add --force to replace it`);
  }

  // Everything is staged beside its target first, then swapped in by renames.
  await mkdir(dirname(input.databasePath), { recursive: true });
  const stagedDb = `${input.databasePath}.restoring`;
  const stagedUploads = `${input.uploadsDir}.restoring`;
  const oldUploads = `${input.uploadsDir}.replaced`;
  await rm(stagedUploads, { recursive: true, force: true });
  await rm(oldUploads, { recursive: true, force: true });
  await copyFile(copy, stagedDb);
  await copyTree(sourceUploads, stagedUploads);
  // A WAL left by the replaced database would be replayed into the restored one: it goes first.
  await rm(`${input.databasePath}-wal`, { force: true });
  await rm(`${input.databasePath}-shm`, { force: true });
  await rename(stagedDb, input.databasePath);
  if (existsSync(input.uploadsDir)) await rename(input.uploadsDir, oldUploads);
  await rename(stagedUploads, input.uploadsDir);
  await rm(oldUploads, { recursive: true, force: true });

  await verifyDatabase(input.databasePath, manifest, "the restored database");
  await verifyUploads(input.uploadsDir, manifest, "the restored uploads");
  return manifest;
}

export async function readManifest(folder: string): Promise<BackupManifest> {
  return manifestSchema.parse(JSON.parse(await readFile(join(folder, MANIFEST), "utf8")));
}

async function verifyDatabase(file: string, manifest: BackupManifest, what: string) {
  if (!existsSync(file)) throw new BackupError(`${what} is missing (${file})`);
  const { sha256 } = await fileDigest(file);
  if (sha256 !== manifest.database.sha256) {
    throw new BackupError(`${what} does not match the manifest's sha256: the copy is damaged`);
  }
  const found = inspectDatabase(file, { makeSelfContained: false });
  if (found.integrity !== "ok") throw new BackupError(`${what} fails PRAGMA integrity_check: ${found.integrity}`);
  const { events, paidBookings } = manifest.counts;
  if (found.counts.events !== events || found.counts.paidBookings !== paidBookings) {
    throw new BackupError(
      `${what} holds ${found.counts.events} events and ${found.counts.paidBookings} paid bookings; ` +
        `the manifest says ${events} and ${paidBookings}`,
    );
  }
}

async function verifyUploads(dir: string, manifest: BackupManifest, what: string) {
  const present = new Map((await listFiles(dir)).map((f) => [f.name, f.bytes]));
  const missing = manifest.uploads.files.filter((f) => present.get(f.name) !== f.bytes);
  if (missing.length > 0 || manifest.uploads.count !== manifest.uploads.files.length) {
    throw new BackupError(
      `${what} lack ${missing.length} of the manifest's ${manifest.uploads.count} files (${missing
        .slice(0, 3)
        .map((f) => f.name)
        .join(", ")})`,
    );
  }
}

/**
 * Integrity and the counts the manifest records. With `makeSelfContained` the copy is also switched
 * out of WAL mode, so the backup is one file that opens read-only anywhere and never grows a -wal.
 */
function inspectDatabase(file: string, options: { makeSelfContained: boolean }) {
  const sqlite = new Database(file, { fileMustExist: true, readonly: !options.makeSelfContained });
  try {
    if (options.makeSelfContained) sqlite.pragma("journal_mode = DELETE");
    const integrity = (sqlite.pragma("integrity_check", { simple: false }) as Record<string, string>[])
      .map((row) => String(Object.values(row)[0]))
      .join("; ");
    const count = (sql: string) => Number(sqlite.prepare(sql).pluck().get());
    return {
      integrity,
      counts: {
        events: count("select count(*) from events"),
        paidBookings: count("select count(*) from bookings where status = 'paid'"),
      },
    };
  } finally {
    sqlite.close();
  }
}

async function fileDigest(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest("hex") };
}

type FileEntry = { name: string; bytes: number };

/** Regular files under `dir` (paths relative to it, `/`-separated), skipping probes and half-written temporaries. */
async function listFiles(dir: string): Promise<FileEntry[]> {
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true, encoding: "utf8" });
  } catch {
    return [];
  }
  const files: FileEntry[] = [];
  for (const entry of entries.sort()) {
    const base = entry.split(sep).at(-1) ?? entry;
    if (base.startsWith(".") || base.endsWith(".tmp")) continue;
    const info = await stat(join(dir, entry)).catch(() => undefined);
    if (info?.isFile()) files.push({ name: entry.split(sep).join("/"), bytes: info.size });
  }
  return files;
}

/** Copies the files of `from` into `to` (created); a file deleted meanwhile is simply not copied. */
async function copyTree(from: string, to: string): Promise<FileEntry[]> {
  await mkdir(to, { recursive: true });
  const copied: FileEntry[] = [];
  for (const file of await listFiles(from)) {
    const target = join(to, ...file.name.split("/"));
    if (relative(to, target).startsWith("..")) continue;
    await mkdir(dirname(target), { recursive: true });
    try {
      await copyFile(join(from, ...file.name.split("/")), target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    copied.push({ name: file.name, bytes: (await stat(target)).size });
  }
  return copied;
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

function reason(error: unknown): string {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
  if (error instanceof z.ZodError) return "not a manifest this version understands";
  return error instanceof Error ? error.message : String(error);
}
