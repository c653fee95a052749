import { existsSync } from "node:fs";
import { lstat, mkdir, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { STORED_NAME } from "../booking/images.ts";
import { copyRegularFile, copyUploads, inspectDatabase, listUploads, regularFileDigest } from "./backup-files.ts";
import {
  BackupError,
  type BackupManifest,
  DATABASE_FILE,
  type FileEntry,
  readSignedManifest,
  UPLOADS_FOLDER,
} from "./backup-manifest.ts";

// Putting a backup back, and checking a backup or a restored folder against its manifest
// (docs/decisions/006-operations.md).

/**
 * Restores a backup folder into `databasePath` and `uploadsDir`. The backup is checked before
 * anything is written (the manifest's signature with `secret`, checksums, integrity_check, counts,
 * every upload present) and the result is checked again after. An unsigned backup (made before
 * backups were signed) needs `allowUnsigned`; one whose signature does not match is always refused. A target that already holds a database or uploads is refused unless `force`.
 * The server must be stopped: a running server would keep writing to the file it has open.
 *
 * Only what the manifest lists is copied, and of the uploads only stored names on regular files: a
 * link or a file planted in the backup stays behind (`leftOut` names it), and a listed upload that
 * is a link counts as missing, so the backup is refused.
 */
export async function restoreBackup(input: {
  folder: string;
  databasePath: string;
  uploadsDir: string;
  force: boolean;
  /** SESSION_SECRET: the backup must be signed with the same one. */
  secret: string;
  allowUnsigned: boolean;
}): Promise<{ manifest: BackupManifest; signed: boolean; leftOut: string[] }> {
  const { manifest, signed } = await readSignedManifest(input.folder, input);
  const copy = join(input.folder, DATABASE_FILE);
  const sourceUploads = join(input.folder, UPLOADS_FOLDER);
  const uploadsFolder = await lstat(sourceUploads).catch(() => undefined);
  if (uploadsFolder && !uploadsFolder.isDirectory()) {
    throw new BackupError(`the backup's ${UPLOADS_FOLDER} is not a folder (a link is never followed)`);
  }
  // A backup written before uploads were checked by name may list other files; they stay behind.
  const uploads = manifest.uploads.files.filter((f) => STORED_NAME.test(f.name));
  const listed = new Set(uploads.map((f) => f.name));
  const leftOut = [
    ...manifest.uploads.files.filter((f) => !listed.has(f.name)).map((f) => f.name),
    ...(await readdir(sourceUploads).catch(() => [] as string[]))
      .sort()
      .filter((n) => !n.startsWith(".") && !listed.has(n)),
  ];
  await verifyDatabase(copy, manifest, "the backup's database");
  await verifyUploads(sourceUploads, uploads, manifest, "the backup's uploads");

  const present = await listUploads(input.uploadsDir);
  const occupied = [
    ...[input.databasePath, `${input.databasePath}-wal`].filter((f) => existsSync(f)),
    ...(present.stored.length + present.other.length > 0 ? [input.uploadsDir] : []),
  ];
  if (occupied.length > 0 && !input.force) {
    throw new BackupError(`the target is not empty (${occupied.join(", ")}): add --force to replace it`);
  }

  // Everything is staged beside its target first, then swapped in by renames.
  await mkdir(dirname(input.databasePath), { recursive: true });
  const stagedDb = `${input.databasePath}.restoring`;
  const stagedUploads = `${input.uploadsDir}.restoring`;
  const oldUploads = `${input.uploadsDir}.replaced`;
  await rm(stagedDb, { force: true });
  await rm(stagedUploads, { recursive: true, force: true });
  await rm(oldUploads, { recursive: true, force: true });
  if (!(await copyRegularFile(copy, stagedDb))) throw new BackupError(`the backup's database changed while restoring`);
  await copyUploads(sourceUploads, stagedUploads, [...listed]);
  // A WAL left by the replaced database would be replayed into the restored one: it goes first.
  await rm(`${input.databasePath}-wal`, { force: true });
  await rm(`${input.databasePath}-shm`, { force: true });
  await rename(stagedDb, input.databasePath);
  if (existsSync(input.uploadsDir)) await rename(input.uploadsDir, oldUploads);
  await rename(stagedUploads, input.uploadsDir);
  await rm(oldUploads, { recursive: true, force: true });

  await verifyDatabase(input.databasePath, manifest, "the restored database");
  await verifyUploads(input.uploadsDir, uploads, manifest, "the restored uploads");
  return { manifest, signed, leftOut };
}

async function verifyDatabase(file: string, manifest: BackupManifest, what: string) {
  const digest = await regularFileDigest(file);
  if (!digest) throw new BackupError(`${what} is missing or not a regular file (${file})`);
  if (digest.sha256 !== manifest.database.sha256) {
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

/**
 * Every upload in `files` is a regular file in `dir` with its listed size and (signed backups) sha256;
 * links and folders count as missing.
 */
async function verifyUploads(dir: string, files: FileEntry[], manifest: BackupManifest, what: string) {
  const missing: FileEntry[] = [];
  for (const file of files) {
    const found = await regularFileDigest(join(dir, file.name));
    if (found?.bytes !== file.bytes || (file.sha256 !== undefined && found.sha256 !== file.sha256)) missing.push(file);
  }
  if (missing.length > 0 || manifest.uploads.count !== manifest.uploads.files.length) {
    throw new BackupError(
      `${what} lack ${missing.length} of the manifest's ${manifest.uploads.count} files as listed ` +
        `(missing, not a regular file, or other bytes): ${missing
          .slice(0, 3)
          .map((f) => f.name)
          .join(", ")}`,
    );
  }
}
