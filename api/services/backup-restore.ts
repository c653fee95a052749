import { existsSync } from "node:fs";
import { copyFile, mkdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { copyTree, fileDigest, inspectDatabase, listFiles } from "./backup-files.ts";
import {
  BackupError,
  type BackupManifest,
  DATABASE_FILE,
  readManifestOrRefuse,
  UPLOADS_FOLDER,
} from "./backup-manifest.ts";

// Putting a backup back, and checking a backup or a restored folder against its manifest
// (docs/decisions/006-operations.md).

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
  const manifest = await readManifestOrRefuse(input.folder);
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
