import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type BackupPlace, backedUp, backupPlace, SECRET, sha256 } from "../../test/backups.ts";
import { pinClock } from "../../test/clock.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import type { Env } from "../env.ts";
import type { Logger } from "../lib/log.ts";
import { createLocalPayments } from "../providers/payments/local.ts";
import { createSmsProvider } from "../providers/sms/index.ts";
import { createBackup } from "./backup-create.ts";
import { listBackups, readManifest } from "./backup-manifest.ts";
import { backgroundJobs } from "./jobs.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse("2026-03-01T02:00:00.000Z");
// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(T0);

let place: BackupPlace;
const logged: string[] = [];
const log: Logger = (_level, message) => logged.push(message);

function setup(extraEnv: Record<string, string> = {}) {
  logged.length = 0;
  place = backupPlace(extraEnv);
  return place;
}
afterEach(() => place?.close());

/** The scheduler's backup job, as server.ts builds it: a new list per call is a restarted server. */
function backupJob(env: Env) {
  const now = () => T0;
  const { sms } = createSmsProvider(env, place.db, log, now);
  const payments = createLocalPayments(env, place.db, now);
  const job = backgroundJobs({ db: place.db, env, sms, payments, log, now }).find((j) => j.name === "backup");
  if (!job) throw new Error("no backup job in api/ops/jobs.ts");
  return job;
}

const createdTimes = async (root: string) => (await listBackups(root)).map((b) => b.manifest.createdAt).sort();

describe("the scheduled backup", () => {
  it("makes one every BACKUP_EVERY_HOURS and keeps the newest BACKUP_KEEP as the clock moves", async () => {
    const { env, db } = setup({ BACKUP_EVERY_HOURS: "24", BACKUP_KEEP: "3" });
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
    const { env, dir } = setup({ BACKUP_DIR: "" });
    expect(env.BACKUP_DIR).toBeUndefined();
    await backupJob(env).run(T0);
    expect(readdirSync(dir)).toEqual(["data"]);
  });
});

describe("a backup", () => {
  it("writes one self-contained database file whose checksum and counts are in the manifest", async () => {
    const { backup } = await backedUp(setup(), T0);
    const files = readdirSync(backup.folder).sort();
    expect(files).toEqual(["app.db", "manifest.json", "uploads"]);
    const manifest = await readManifest(backup.folder);
    expect(manifest.database.sha256).toBe(sha256(join(backup.folder, "app.db")));
    expect(manifest.counts).toEqual({ events: 1, paidBookings: 7 });
    expect(manifest.uploads.files.map((f) => f.name)).toEqual(readdirSync(join(backup.folder, "uploads")).sort());
  });

  it("is readable by the server's account only, like the data folder it copies", async () => {
    const { backup } = await backedUp(setup(), T0);
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(backup.folder)).toBe(0o700);
    expect(mode(join(backup.folder, "app.db"))).toBe(0o600);
    expect(mode(join(backup.folder, "manifest.json"))).toBe(0o600);
    for (const file of readdirSync(join(backup.folder, "uploads"))) {
      expect(mode(join(backup.folder, "uploads", file)), file).toBe(0o600);
    }
  });

  it("copies only stored uploads that are regular files: a link to a host file or folder stays behind", async () => {
    const { env, db, dir } = setup();
    await insertEvent(db, env.UPLOADS_DIR);
    const real = readdirSync(env.UPLOADS_DIR).sort();
    // Someone who can write UPLOADS_DIR (or a bug) plants links that look like uploads.
    writeFileSync(join(dir, "host-secret"), "a file on the host the backup must not carry");
    mkdirSync(join(dir, "host-folder"));
    writeFileSync(join(dir, "host-folder", `${"c".repeat(32)}.jpg`), "a file inside a folder on the host");
    symlinkSync(join(dir, "host-secret"), join(env.UPLOADS_DIR, `${"a".repeat(32)}.jpg`));
    symlinkSync(join(dir, "host-folder"), join(env.UPLOADS_DIR, "linked-folder"));

    const { manifest, folder, leftOut } = await createBackup({
      sqlite: db.$client,
      uploadsDir: env.UPLOADS_DIR,
      root: env.BACKUP_DIR!,
      now: T0,
      secret: env.SESSION_SECRET,
    });
    expect(manifest.uploads.files.map((f) => f.name)).toEqual(real);
    expect(readdirSync(join(folder, "uploads"), { recursive: true }).sort()).toEqual(real);
    expect(leftOut).toEqual([`${"a".repeat(32)}.jpg`, "linked-folder"]);
    for (const name of real) {
      expect(readFileSync(join(folder, "uploads", name))).toEqual(readFileSync(join(env.UPLOADS_DIR, name)));
    }
  });

  it("signs its manifest with SESSION_SECRET, and writes the secret nowhere", async () => {
    const { backup } = await backedUp(setup(), T0);
    const manifest = await readManifest(backup.folder);
    expect(manifest.signature).toMatch(/^hmac-sha256:[\w-]{43}$/);
    for (const file of readdirSync(backup.folder, { recursive: true, encoding: "utf8" })) {
      const path = join(backup.folder, file);
      if (statSync(path).isFile()) expect(readFileSync(path).includes(SECRET), file).toBe(false);
    }
  });
});
