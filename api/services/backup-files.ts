import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, readdir, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import Database from "better-sqlite3";
import type { FileEntry } from "./backup-manifest.ts";

// The files a backup is made of, read and copied the same way by the backup and the restore: the
// database copy's checks and digest, and the uploads.

/**
 * Integrity and the counts the manifest records. With `makeSelfContained` the copy is also switched
 * out of WAL mode, so the backup is one file that opens read-only anywhere and never grows a -wal.
 */
export function inspectDatabase(file: string, options: { makeSelfContained: boolean }) {
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

export async function fileDigest(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest("hex") };
}

/** Regular files under `dir` (paths relative to it, `/`-separated), skipping probes and half-written temporaries. */
export async function listFiles(dir: string): Promise<FileEntry[]> {
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
export async function copyTree(from: string, to: string): Promise<FileEntry[]> {
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
