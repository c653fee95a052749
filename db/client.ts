import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { DEFAULT_TIME_ZONE } from "../common/time-zone.ts";
import * as schema from "./schema.ts";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/**
 * The database or a transaction on it. A helper that reads or writes takes this, so the same check
 * runs alone and inside the IMMEDIATE transaction of a multi-step write that re-checks it
 * (docs/decisions/002-seats-holds-and-payment.md).
 */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), "migrations");

/** How long a statement waits for another connection's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;
const OPEN_BUSY_TIMEOUT_MS = 30_000;

/**
 * Opens (creating if needed) the SQLite file, in WAL mode with foreign keys on, and migrates it.
 * `timeZone` is the zone of events saved before events had one (EVENT_TIME_ZONE).
 */
export function openDatabase(path: string, options: { timeZone?: string } = {}): Db {
  if (path !== ":memory:") ownerOnly(path);
  // SQLite answers some lock conflicts at open with SQLITE_BUSY at once instead of calling the busy
  // handler (where waiting could deadlock, as when the journal mode changes under another opener).
  // Processes started together on a loaded machine met that rarely (test/hold-processes.test.ts, 1
  // run in a full local suite): the whole open is tried again until the open's own wait is used up.
  const deadline = Date.now() + OPEN_BUSY_TIMEOUT_MS;
  for (;;) {
    const sqlite = new Database(path);
    try {
      return openOn(sqlite, options);
    } catch (error) {
      sqlite.close();
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      // A short synchronous pause: opening happens before the server takes any request.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25 + Math.floor(Math.random() * 50));
    }
  }
}

const isBusy = (error: unknown) =>
  typeof (error as { code?: unknown })?.code === "string" && (error as { code: string }).code.startsWith("SQLITE_BUSY");

function openOn(sqlite: Database.Database, options: { timeZone?: string }): Db {
  // A second writer (another process, a restart racing the old one) waits instead of failing: set
  // first, so that switching to WAL and migrating wait for it too. Opening waits longer than a request
  // does: on a loaded machine, processes started together queue behind the one applying every
  // migration to a new file, and a server that gives up at start-up is worse than a slow start.
  sqlite.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  // Up to 64 MB of pages kept in memory (SQLite's default is 2 MB): a report over five years walks
  // indexes of tens of megabytes (the ratings' pairs, the paid bookings), and with the default it read
  // them again from the file each time, a third of the matches report's time (bench/README.md,
  // "Reports"). Pages are kept only once read, so a server that never opens the reports stays small.
  sqlite.pragma("cache_size = -65536");
  const db = drizzle(statementCache(sqlite), { schema }) as Db;
  // drizzle names what it was given as $client; the connection itself is what callers expect there.
  db.$client = sqlite;
  migrate(sqlite);
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Only a database from before venue zones has rows to fill. Checked with a read first: a write here
  // would queue every open behind busy writers (another process's holds) and could time out.
  if (sqlite.prepare("SELECT 1 FROM events WHERE time_zone = '' LIMIT 1").get()) {
    sqlite.prepare("UPDATE events SET time_zone = ? WHERE time_zone = ''").run(options.timeZone ?? DEFAULT_TIME_ZONE);
  }
  return db;
}

/** How many compiled statements a connection keeps: the app runs a few hundred distinct queries. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as drizzle sees it, with its statements kept once compiled. drizzle prepares every
 * query each time it runs; compiling the same SQL again was a quarter of a seat hold's time, spent
 * under the write lock (docs/decisions/007-scale.md). drizzle calls only `prepare` and `transaction`
 * on its client. A kept statement is handed out in its default mode, since drizzle switches some to
 * raw (array) rows; statements are never shared between connections, and each is run to the end
 * before the next query, so reusing one is safe. Other callers use `$client` and compile their own.
 */
function statementCache(sqlite: Database.Database): Database.Database {
  const kept = new Map<string, Database.Statement>();
  const prepare = (source: string) => {
    let statement = kept.get(source);
    if (statement) {
      // Most recently used last, so the oldest is the one dropped when full.
      kept.delete(source);
    } else {
      statement = sqlite.prepare(source);
      if (kept.size >= STATEMENT_CACHE_SIZE) kept.delete(kept.keys().next().value as string);
    }
    kept.set(source, statement);
    if (statement.reader) statement.raw(false);
    return statement;
  };
  const facade: Pick<Database.Database, "prepare" | "transaction"> = {
    prepare: prepare as Database.Database["prepare"],
    transaction: (fn) => sqlite.transaction(fn),
  };
  return facade as Database.Database;
}

const MIGRATIONS_TABLE = "__drizzle_migrations";

/**
 * Applies the migrations the file lacks, as drizzle's migrator does (same table, same rows), but
 * safe for several processes opening one file at once (docs/decisions/007-scale.md). drizzle's reads
 * what is applied outside its transaction and then begins a deferred one, so two processes opening
 * a new file both ran the first migration and one crashed. Here an up-to-date file is only read, and
 * a file that needs migrating is read again inside an IMMEDIATE transaction, which waits for the
 * write lock before looking: the second process finds the work done.
 */
function migrate(sqlite: Database.Database) {
  const migrations = readMigrationFiles({ migrationsFolder });
  const newest = migrations.at(-1)?.folderMillis ?? 0;
  const applied = (): number | undefined => {
    const table = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(MIGRATIONS_TABLE);
    if (!table) return undefined;
    const last = sqlite
      .prepare(`SELECT created_at FROM ${MIGRATIONS_TABLE} ORDER BY created_at DESC LIMIT 1`)
      .pluck()
      .get();
    return last === undefined ? undefined : Number(last);
  };
  if ((applied() ?? -1) >= newest) return;
  sqlite
    .transaction(() => {
      sqlite.exec(
        `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`,
      );
      const last = applied();
      const record = sqlite.prepare(`INSERT INTO ${MIGRATIONS_TABLE} ("hash", "created_at") VALUES (?, ?)`);
      for (const migration of migrations) {
        if (last !== undefined && last >= migration.folderMillis) continue;
        for (const statement of migration.sql) sqlite.exec(statement);
        record.run(migration.hash, migration.folderMillis);
      }
    })
    .immediate();
}

/** The database holds names, emails and phones: readable and writable by the server's account only. */
export const DATA_FILE_MODE = 0o600;

/**
 * Creates the database file 0600 before SQLite opens it (SQLite gives its -wal and -shm files the
 * database file's permissions), in a folder made 0700 when it is created here, and narrows files an
 * older version or a copy left wider.
 */
function ownerOnly(path: string) {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, "a", DATA_FILE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    let mode: number;
    try {
      mode = statSync(file).mode;
    } catch {
      continue; // no -wal or -shm yet: SQLite will create them with the database file's mode
    }
    if ((mode & 0o077) !== 0) chmodSync(file, DATA_FILE_MODE);
  }
}
