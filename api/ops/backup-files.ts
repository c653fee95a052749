import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { inspectCopy } from "../../db/sqlite.ts";
import { STORED_NAME, UPLOAD_DIR_MODE, UPLOAD_FILE_MODE } from "../booking/images.ts";
import type { FileEntry } from "./backup-manifest.ts";

// The files a backup is made of, read and copied the same way by the backup and the restore: the
// database copy's checks, and the uploads. Nothing here follows a symbolic link: a link planted in
// the uploads folder or in a backup would otherwise copy a host file in as an upload, which the
// image route then serves (docs/decisions/006-operations.md).

/**
 * Integrity and the counts the manifest records. With `makeSelfContained` the copy is also switched
 * out of WAL mode, so the backup is one file that opens read-only anywhere and never grows a -wal.
 */
export function inspectDatabase(file: string, options: { makeSelfContained: boolean }) {
  return inspectCopy(file, options, (count) => ({
    events: count("select count(*) from events"),
    paidBookings: count("select count(*) from bookings where status = 'paid'"),
  }));
}

export type Digest = { bytes: number; sha256: string };

// O_NOFOLLOW refuses a link that replaced the file after it was looked at; O_NONBLOCK keeps a FIFO
// put there from hanging the open (the handle's fstat then refuses it).
const READ_NO_FOLLOW = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const NOT_A_FILE = new Set(["ENOENT", "ENOTDIR", "ELOOP", "EMLINK", "ENXIO"]);

/** A handle on `path` if it is a regular file; undefined if it is missing, a link, a folder or anything else. */
async function openRegularFile(path: string): Promise<FileHandle | undefined> {
  const seen = await lstat(path).catch(() => undefined);
  if (!seen?.isFile()) return undefined;
  let handle: FileHandle;
  try {
    handle = await open(path, READ_NO_FOLLOW);
  } catch (error) {
    if (NOT_A_FILE.has((error as NodeJS.ErrnoException).code ?? "")) return undefined;
    throw error;
  }
  if ((await handle.stat()).isFile()) return handle;
  await handle.close();
  return undefined;
}

async function eachChunk(handle: FileHandle, use: (chunk: Buffer) => Promise<unknown> | undefined): Promise<Digest> {
  const hash = createHash("sha256");
  const buffer = Buffer.allocUnsafe(1 << 16);
  let bytes = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return { bytes, sha256: hash.digest("hex") };
    const chunk = buffer.subarray(0, bytesRead);
    hash.update(chunk);
    bytes += bytesRead;
    await use(chunk);
  }
}

/** Size and sha256 of `path` if it is a regular file; undefined otherwise. */
export async function regularFileDigest(path: string): Promise<Digest | undefined> {
  const source = await openRegularFile(path);
  if (!source) return undefined;
  try {
    return await eachChunk(source, () => undefined);
  } finally {
    await source.close();
  }
}

/**
 * Copies `from` to a new file `to` (readable by the server's account only, like every upload and
 * the database: decision 012) if `from` is a regular file, and gives what it copied; undefined, and
 * nothing written, otherwise. `to` must not exist: a link put there is never written through.
 */
export async function copyRegularFile(from: string, to: string): Promise<Digest | undefined> {
  const source = await openRegularFile(from);
  if (!source) return undefined;
  try {
    const target = await open(to, "wx", UPLOAD_FILE_MODE);
    try {
      return await eachChunk(source, (chunk) => target.write(chunk));
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/**
 * The top of an uploads folder, looked at with lstat and never followed: the stored uploads (a name
 * the app writes, STORED_NAME, on a regular file) and the names of everything else (links, folders,
 * other files). Probes and half-written temporaries (`.name`, `*.tmp`) are neither.
 */
export async function listUploads(dir: string): Promise<{ stored: string[]; other: string[] }> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const stored: string[] = [];
  const other: string[] = [];
  for (const name of names.sort()) {
    if (name.startsWith(".") || name.endsWith(".tmp")) continue;
    const isFile = (await lstat(join(dir, name)).catch(() => undefined))?.isFile();
    (isFile && STORED_NAME.test(name) ? stored : other).push(name);
  }
  return { stored, other };
}

/**
 * Copies the stored uploads `names` from `from` into a new folder `to`. One that is gone or is no
 * longer a regular file by the time it is copied is left out (the sweep may delete one meanwhile).
 */
export async function copyUploads(from: string, to: string, names: readonly string[]): Promise<FileEntry[]> {
  await mkdir(to, { recursive: true, mode: UPLOAD_DIR_MODE });
  const copied: FileEntry[] = [];
  for (const name of names) {
    if (!STORED_NAME.test(name)) continue;
    const digest = await copyRegularFile(join(from, name), join(to, name));
    if (digest) copied.push({ name, ...digest });
  }
  return copied;
}
