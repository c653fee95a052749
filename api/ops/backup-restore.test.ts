import {
  cpSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/client.ts";
import {
  asUnsignedBackup,
  type BackupPlace,
  backedUp,
  backupPlace,
  SECRET,
  sha256,
  tamperWithBackup,
} from "../../test/backups.ts";
import { pinClock } from "../../test/clock.ts";
import { dbState, folderState } from "../../test/suites/db-state.ts";
import { BackupError } from "./backup-manifest.ts";
import { restoreBackup } from "./backup-restore.ts";

const T0 = Date.parse("2026-03-01T02:00:00.000Z");
// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(T0);

let place: BackupPlace;
async function setup() {
  place = backupPlace();
  return { ...(await backedUp(place, T0)), env: place.env, dir: place.dir };
}
afterEach(() => place?.close());

/** A restore with the secret the backups were made with, taking no unsigned backup. */
const signedBy = { secret: SECRET, allowUnsigned: false };

/** A signed restore of `folder` into a fresh data folder `target` (its app.db and uploads/). */
const restoreInto = (target: string, folder: string) =>
  restoreBackup({
    ...signedBy,
    folder,
    databasePath: join(target, "app.db"),
    uploadsDir: join(target, "uploads"),
    force: false,
  });

describe("a backup's restore", () => {
  it("restores into an empty folder: every row and every upload, checked", async () => {
    const { env, backup, dir } = await setup();
    const target = join(dir, "restored");
    const { manifest } = await restoreInto(target, backup.folder);
    expect(manifest.counts.paidBookings).toBe(7);
    const restored = new Database(join(target, "app.db"), { readonly: true });
    try {
      expect(dbState(restored)).toEqual(dbState(place.db.$client));
      expect(restored.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      restored.close();
    }
    expect(folderState(join(target, "uploads"))).toEqual(folderState(env.UPLOADS_DIR));
  });

  it("refuses a target that holds data unless forced, and then replaces it whole", async () => {
    const { env, backup } = await setup();
    const before = sha256(env.DATABASE_PATH);
    const into = { folder: backup.folder, databasePath: env.DATABASE_PATH, uploadsDir: env.UPLOADS_DIR };
    await expect(restoreBackup({ ...signedBy, ...into, force: false })).rejects.toThrow(/not empty.*--force/);
    expect(sha256(env.DATABASE_PATH)).toBe(before);

    // Forced: the live database is closed first, as docs/operations.md says (stop the server).
    place.db.$client.close();
    writeFileSync(join(env.UPLOADS_DIR, "stray.jpg"), "not from the backup");
    await restoreBackup({ ...signedBy, ...into, force: true });
    expect(existsSync(`${env.DATABASE_PATH}-wal`)).toBe(false);
    expect(folderState(env.UPLOADS_DIR)).not.toContain("stray.jpg");
    place.db = openDatabase(env.DATABASE_PATH);
    expect(place.db.$client.prepare("select count(*) from bookings where status = 'paid'").pluck().get()).toBe(7);
  });

  it("refuses a damaged backup before touching the target", async () => {
    const { backup, dir } = await setup();
    const copy = join(backup.folder, "app.db");
    const bytes = readFileSync(copy);
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0xff;
    writeFileSync(copy, bytes);
    const target = join(dir, "restored");
    const attempt = restoreInto(target, backup.folder);
    await expect(attempt).rejects.toBeInstanceOf(BackupError);
    await expect(attempt).rejects.toThrow(/sha256/);
    expect(existsSync(target)).toBe(false);
  });

  it("refuses a backup whose uploads are incomplete", async () => {
    const { backup, dir } = await setup();
    const [first] = readdirSync(join(backup.folder, "uploads"));
    rmSync(join(backup.folder, "uploads", first!));
    const target = join(dir, "restored");
    await expect(restoreInto(target, backup.folder)).rejects.toThrow(/lack 1 of the manifest's 2 files/);
  });

  it("copies only the uploads its manifest lists: a planted link or file is left behind", async () => {
    const { env, backup, dir } = await setup();
    const uploads = join(backup.folder, "uploads");
    writeFileSync(join(dir, "host-secret"), "a file on the host the restore must not serve");
    symlinkSync(join(dir, "host-secret"), join(uploads, `${"a".repeat(32)}.jpg`));
    writeFileSync(join(uploads, `${"b".repeat(32)}.jpg`), "a file the backup never held");
    const target = join(dir, "restored");
    const { leftOut } = await restoreInto(target, backup.folder);
    expect(leftOut).toEqual([`${"a".repeat(32)}.jpg`, `${"b".repeat(32)}.jpg`]);
    expect(folderState(join(target, "uploads"))).toEqual(folderState(env.UPLOADS_DIR));
    for (const name of folderState(join(target, "uploads"))) {
      expect(lstatSync(join(target, "uploads", name)).isFile(), name).toBe(true);
    }
  });

  it("refuses a backup in which a listed upload is a link, before touching the target", async () => {
    const { backup, dir } = await setup();
    const [first] = readdirSync(join(backup.folder, "uploads"));
    const listed = join(backup.folder, "uploads", first!);
    // A host file of exactly the listed size, so only the link itself can give it away.
    writeFileSync(join(dir, "host-secret"), Buffer.alloc(statSync(listed).size, "s"));
    rmSync(listed);
    symlinkSync(join(dir, "host-secret"), listed);
    const target = join(dir, "restored");
    await expect(restoreInto(target, backup.folder)).rejects.toThrow(/lack 1 of the manifest's 2 files/);
    expect(existsSync(target)).toBe(false);
  });

  it("refuses a backup whose uploads folder is a link, even to the very same files", async () => {
    const { backup, dir } = await setup();
    const uploads = join(backup.folder, "uploads");
    cpSync(uploads, join(dir, "elsewhere"), { recursive: true });
    rmSync(uploads, { recursive: true });
    symlinkSync(join(dir, "elsewhere"), uploads);
    const target = join(dir, "restored");
    await expect(restoreInto(target, backup.folder)).rejects.toThrow(/uploads is not a folder/);
    expect(existsSync(target)).toBe(false);
  });
});

describe("a backup's signature", () => {
  const restoreInto = (folder: string, dir: string, options: { secret?: string; allowUnsigned?: boolean } = {}) =>
    restoreBackup({
      folder,
      databasePath: join(dir, "restored", "app.db"),
      uploadsDir: join(dir, "restored", "uploads"),
      force: false,
      secret: options.secret ?? SECRET,
      allowUnsigned: options.allowUnsigned ?? false,
    });

  it("refuses an edited backup whose sha256 was recomputed, even with --unsigned, before touching the target", async () => {
    const { backup, dir } = await setup();
    tamperWithBackup(backup.folder);
    await expect(restoreInto(backup.folder, dir)).rejects.toThrow(/signature does not match/);
    await expect(restoreInto(backup.folder, dir, { allowUnsigned: true })).rejects.toThrow(/signature does not match/);
    expect(existsSync(join(dir, "restored"))).toBe(false);
  });

  it("refuses a backup made with another SESSION_SECRET", async () => {
    const { backup, dir } = await setup();
    const other = "another-secret-another-secret-another-0123";
    await expect(restoreInto(backup.folder, dir, { secret: other })).rejects.toThrow(/signature does not match/);
    expect(existsSync(join(dir, "restored"))).toBe(false);
  });

  it("restores an unsigned backup made before signing only with --unsigned", async () => {
    const { backup, dir } = await setup();
    asUnsignedBackup(backup.folder);
    await expect(restoreInto(backup.folder, dir)).rejects.toThrow(/not signed.*--unsigned/);
    expect(existsSync(join(dir, "restored"))).toBe(false);
    const { manifest } = await restoreInto(backup.folder, dir, { allowUnsigned: true });
    expect(manifest.counts.paidBookings).toBe(7);
    expect(sha256(join(dir, "restored", "app.db"))).toBe(sha256(join(backup.folder, "app.db")));
  });

  it("refuses a signed backup whose signature was removed, even with --unsigned", async () => {
    const { backup, dir } = await setup();
    const file = join(backup.folder, "manifest.json");
    const { signature: _, ...unsigned } = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify(unsigned));
    await expect(restoreInto(backup.folder, dir, { allowUnsigned: true })).rejects.toThrow(/no signature/);
    expect(existsSync(join(dir, "restored"))).toBe(false);
  });

  it("refuses an upload swapped for another of the same size", async () => {
    const { backup, dir } = await setup();
    const [first] = readdirSync(join(backup.folder, "uploads"));
    const listed = join(backup.folder, "uploads", first!);
    writeFileSync(listed, Buffer.alloc(statSync(listed).size, "x"));
    await expect(restoreInto(backup.folder, dir)).rejects.toThrow(/lack 1 of the manifest's 2 files/);
    expect(existsSync(join(dir, "restored"))).toBe(false);
  });
});
