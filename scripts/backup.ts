import { existsSync } from "node:fs";
import { readEnvOrExit } from "../api/env.ts";
import { createBackup } from "../api/ops/backup-create.ts";
import { openForBackup } from "../db/sqlite.ts";

// `npm run backup -- DIR`: one backup of DATABASE_PATH and UPLOADS_DIR into a new folder under DIR
// (BACKUP_DIR when DIR is left out). Safe while the server runs: SQLite's online backup API reads a
// consistent snapshot without stopping the server's writes. The manifest is signed with
// SESSION_SECRET, so restoring needs the same secret (docs/decisions/006-operations.md).

const args = process.argv.slice(2);
const env = readEnvOrExit();
const root = args[0] ?? env.BACKUP_DIR;
if (!root || args.length > 1 || root.startsWith("-")) {
  console.error("usage: npm run backup -- DIR   (or set BACKUP_DIR)");
  process.exit(2);
}
if (!existsSync(env.DATABASE_PATH)) {
  console.error(`backup failed: there is no database at ${env.DATABASE_PATH} (DATABASE_PATH)`);
  process.exit(1);
}

// The server may be mid-write: the backup waits for it rather than fail.
const sqlite = openForBackup(env.DATABASE_PATH);
try {
  const { folder, manifest, leftOut } = await createBackup({
    sqlite,
    uploadsDir: env.UPLOADS_DIR,
    root,
    now: Date.now(),
    secret: env.SESSION_SECRET,
  });
  console.log(
    `backup written to ${folder}: ${manifest.counts.events} events, ${manifest.counts.paidBookings} paid bookings, ` +
      `${manifest.uploads.count} uploaded files; database sha256 ${manifest.database.sha256}`,
  );
  if (leftOut.length > 0) {
    console.warn(
      `left out ${leftOut.length} entries of ${env.UPLOADS_DIR} that are not stored uploads ` +
        `(links, folders or other files): ${leftOut.slice(0, 5).join(", ")}`,
    );
  }
} catch (error) {
  console.error(`backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  sqlite.close();
}
