import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Env, parseEnv } from "../api/env.ts";
import { createBackup } from "../api/services/backup-create.ts";
import { type Db, openDatabase } from "../db/client.ts";
import { insertEvent, insertPaidBookings } from "./fixtures.ts";

// One set-up for the backup suites (api/services/backup-*.test.ts): a temporary folder holding a
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
    now,
  });
  return { event, paid, backup };
}
