import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import type Database from "better-sqlite3";

export type TableState = { rows: number; hash: string };
export type DbState = Record<string, TableState>;

const canonical = (_key: string, value: unknown) => {
  if (typeof value === "bigint") return `${value}n`;
  if (value instanceof Uint8Array) return `hex:${Buffer.from(value).toString("hex")}`;
  return value;
};

/**
 * Row count and a hash of every row of every table (in rowid order), so "the data is unchanged"
 * means byte for byte, not just "the counts match".
 */
export function dbState(sqlite: Database.Database, skip: readonly string[] = []): DbState {
  const tables = sqlite
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
    .pluck()
    .all() as string[];
  const state: DbState = {};
  for (const table of tables) {
    if (skip.includes(table)) continue;
    const rows = sqlite
      .prepare(`select * from "${table.replaceAll('"', '""')}" order by rowid`)
      .raw()
      .all();
    state[table] = {
      rows: rows.length,
      hash: createHash("sha256").update(JSON.stringify(rows, canonical)).digest("hex").slice(0, 16),
    };
  }
  return state;
}

/** The file names in a folder (uploads), sorted; a refused upload must leave nothing behind. */
export function folderState(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** `PRAGMA integrity_check` and `PRAGMA foreign_key_check`, as plain values to compare. */
export function integrity(sqlite: Database.Database): { integrity: string[]; foreignKeys: unknown[] } {
  return {
    integrity: (sqlite.pragma("integrity_check") as Record<string, string>[]).map((r) => String(Object.values(r)[0])),
    foreignKeys: sqlite.pragma("foreign_key_check") as unknown[],
  };
}
