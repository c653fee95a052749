import Database from "better-sqlite3";
import type { Db } from "./client.ts";

// What only SQLite has, behind names that say what they give, so that the rooms above read as what
// they need (a change stamp, a backup, a checkpoint) and a move to another database changes this file
// and db/client.ts, not the rooms (docs/decisions/007-scale.md, "The path past one machine").

/**
 * A stamp that changes whenever the database may have: `PRAGMA data_version` moves when another
 * connection (another process) commits, `total_changes()` when this one writes. Equal stamps mean
 * nothing was written in between; the statements are prepared once.
 */
export function changeStamp(db: Db): () => string {
  const dataVersion = db.$client.prepare("PRAGMA data_version").pluck();
  const totalChanges = db.$client.prepare("SELECT total_changes()").pluck();
  return () => `${dataVersion.get() as number}:${totalChanges.get() as number}`;
}

/** Whether the database answers a query (throws its error when it does not). */
export function databaseAnswers(db: Db): void {
  db.$client.prepare("select count(*) from sqlite_master").pluck().get();
}

/** Folds the write-ahead log into the database file and closes it: what is left on disk is one complete file. */
export function checkpointAndClose(db: Db): void {
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  db.$client.close();
}

/** Opens an existing database file for a backup, waiting up to 5 s for a writer (the server may be mid-write). */
export function openForBackup(path: string): Database.Database {
  const sqlite = new Database(path, { fileMustExist: true });
  sqlite.pragma("busy_timeout = 5000");
  return sqlite;
}

/**
 * Copies every page under one read transaction into `file`: a consistent snapshot that another
 * process's writes cannot make restart (in WAL mode they are not blocked while it reads).
 */
export async function backupTo(sqlite: Database.Database, file: string): Promise<void> {
  await sqlite.backup(file, { progress: () => 0x7fffffff });
}

/**
 * Opens a copy and reports `PRAGMA integrity_check` ("ok" when sound) and what `count` reads. With
 * `makeSelfContained` the copy is also switched out of WAL mode, so it is one file that opens
 * read-only anywhere and never grows a -wal.
 */
export function inspectCopy<T>(
  file: string,
  options: { makeSelfContained: boolean },
  count: (scalar: (sql: string) => number) => T,
): { integrity: string; counts: T } {
  const sqlite = new Database(file, { fileMustExist: true, readonly: !options.makeSelfContained });
  try {
    if (options.makeSelfContained) sqlite.pragma("journal_mode = DELETE");
    const integrity = (sqlite.pragma("integrity_check", { simple: false }) as Record<string, string>[])
      .map((row) => String(Object.values(row)[0]))
      .join("; ");
    return { integrity, counts: count((sql) => Number(sqlite.prepare(sql).pluck().get())) };
  } finally {
    sqlite.close();
  }
}
