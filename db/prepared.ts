import type { Db } from "./client.ts";

/**
 * A query built once per database and run as often as asked, with `sql.placeholder(...)` for what
 * changes between runs. Building a drizzle query costs far more than SQLite running it: a three-table
 * select of whole rows took about 500 µs built each time, 100 µs prepared, 7 µs of it in SQLite. The
 * scheduler's jobs ask the same questions every tick (docs/decisions/061-ci-time.md).
 *
 * A statement prepared on the database runs inside a transaction open on it (one connection), so a
 * helper that holds a transaction may run it too.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const prepared = new WeakMap<Db, T>();
  return (db) => {
    let query = prepared.get(db);
    if (query === undefined) {
      query = build(db);
      prepared.set(db, query);
    }
    return query;
  };
}
