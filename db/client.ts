import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { DEFAULT_TIME_ZONE } from "../api/lib/time-zone.ts";
import * as schema from "./schema.ts";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * Opens (creating if needed) the SQLite file, in WAL mode with foreign keys on, and migrates it.
 * `timeZone` is the zone of events saved before events had one (EVENT_TIME_ZONE).
 */
export function openDatabase(path: string, options: { timeZone?: string } = {}): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  // A second writer (another process, a restart racing the old one) waits instead of failing.
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder });
  sqlite.prepare("UPDATE events SET time_zone = ? WHERE time_zone = ''").run(options.timeZone ?? DEFAULT_TIME_ZONE);
  return db;
}
