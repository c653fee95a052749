import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { type Env, parseEnv } from "../api/env.ts";
import { createBackup } from "../api/ops/backup-create.ts";
import { type Db, openDatabase } from "../db/client.ts";
import { insertEvent, insertPaidBookings } from "./fixtures.ts";

// One set-up for the backup suites (api/ops/backup-*.test.ts): a temporary folder holding a
// live data folder (`data/`) and a backup root (`backups/`), made fresh for each test.

export const SECRET = "test-secret-test-secret-test-secret-0123";

export type BackupPlace = { dir: string; env: Env; db: Db; close(): void };

export function backupPlace(extraEnv: Record<string, string> = {}): BackupPlace {
  const dir = mkdtempSync(join(tmpdir(), "sdt-backup-"));
  const env = parseEnv({
    NODE_ENV: "test",
    DATABASE_PATH: join(dir, "data", "app.db"),
    UPLOADS_DIR: join(dir, "data", "uploads"),
    SESSION_SECRET: SECRET,
    BACKUP_DIR: join(dir, "backups"),
    ...extraEnv,
  });
  const place: BackupPlace = {
    dir,
    env,
    db: openDatabase(env.DATABASE_PATH),
    close() {
      if (place.db.$client.open) place.db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return place;
}

export const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** A place whose live data holds one event (a picture and its thumbnail) and 7 paid bookings, backed up once at `now`. */
export async function backedUp(place: BackupPlace, now: number) {
  const event = await insertEvent(place.db, place.env.UPLOADS_DIR);
  const paid = insertPaidBookings(place.db, event.id, 7);
  const backup = await createBackup({
    sqlite: place.db.$client,
    uploadsDir: place.env.UPLOADS_DIR,
    root: place.env.BACKUP_DIR!,
    secret: place.env.SESSION_SECRET,
    now,
  });
  return { event, paid, backup };
}

type ManifestJson = {
  format: string;
  database: { bytes: number; sha256: string };
  uploads: { files: { name: string; bytes: number; sha256?: string }[] };
  signature?: string;
};

function rewriteManifest(folder: string, change: (manifest: ManifestJson) => void) {
  const file = join(folder, "manifest.json");
  const manifest = JSON.parse(readFileSync(file, "utf8")) as ManifestJson;
  change(manifest);
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * What someone who can write a backup could do: make every event free in its database, then put
 * the new size and sha256 in the manifest so the checksum agrees. The counts do not change.
 */
export function tamperWithBackup(folder: string) {
  const copy = join(folder, "app.db");
  const sqlite = new Database(copy);
  sqlite.prepare("update events set price_cents = 0").run();
  sqlite.close();
  rewriteManifest(folder, (manifest) => {
    manifest.database = { ...manifest.database, bytes: statSync(copy).size, sha256: sha256(copy) };
  });
}

/** Makes a backup look like one written before backups were signed (format 1: no signature, uploads by size only). */
export function asUnsignedBackup(folder: string) {
  rewriteManifest(folder, (manifest) => {
    manifest.format = "speed-dating-tickets-backup/1";
    delete manifest.signature;
    for (const file of manifest.uploads.files) delete file.sha256;
  });
}
