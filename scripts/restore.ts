import { readEnvOrExit } from "../api/env.ts";
import { BackupError } from "../api/ops/backup-manifest.ts";
import { restoreBackup } from "../api/ops/backup-restore.ts";

// `npm run restore -- BACKUP_FOLDER [--force] [--unsigned]`: puts a backup back into DATABASE_PATH
// and UPLOADS_DIR. Stop the server first. The manifest must carry a signature made with this
// SESSION_SECRET; --unsigned lets a backup made before backups were signed through, never one whose
// signature is wrong. A target that already holds data is refused without --force, and nothing is
// called done until the checksums, PRAGMA integrity_check and the manifest's counts agree, both for
// the backup before it is copied and for the result (docs/decisions/006-operations.md).

const FLAGS = ["--force", "--unsigned"];
const args = process.argv.slice(2);
const force = args.includes("--force");
const allowUnsigned = args.includes("--unsigned");
const rest = args.filter((a) => !FLAGS.includes(a));
const folder = rest[0];
if (!folder || rest.length > 1 || folder.startsWith("-")) {
  console.error("usage: npm run restore -- BACKUP_FOLDER [--force] [--unsigned]");
  process.exit(2);
}
const env = readEnvOrExit();

try {
  const { manifest, signed, leftOut } = await restoreBackup({
    folder,
    databasePath: env.DATABASE_PATH,
    uploadsDir: env.UPLOADS_DIR,
    force,
    secret: env.SESSION_SECRET,
    allowUnsigned,
  });
  console.log(
    `restored the backup of ${manifest.createdAt} into ${env.DATABASE_PATH} and ${env.UPLOADS_DIR}: ` +
      `${manifest.counts.events} events, ${manifest.counts.paidBookings} paid bookings, ` +
      `${manifest.uploads.count} uploaded files; ${signed ? "signature," : "unsigned (--unsigned), so only"} ` +
      "sha256, integrity_check and counts verified. Done.",
  );
  if (leftOut.length > 0) {
    console.warn(
      `left out ${leftOut.length} entries of the backup that are not uploads its manifest lists ` +
        `(links, folders or files added to it): ${leftOut.slice(0, 5).join(", ")}`,
    );
  }
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(error instanceof BackupError ? `restore refused: ${message}` : `restore failed: ${message}`);
  process.exit(1);
}
