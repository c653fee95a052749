import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "./client.ts";
import { events } from "./schema.ts";

// Data at rest (docs/decisions/012-disk-and-personal-data.md): the database holds names, emails and phones, so it, its WAL and the
// generated session secret are readable by the server's account only.

const mode = (path: string) => statSync(path).mode & 0o777;
const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "sdt-db-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function writeSomething(db: ReturnType<typeof openDatabase>) {
  db.insert(events)
    .values({
      name: "Modes Mixer",
      imageName: `${"a".repeat(32)}.jpg`,
      startsAt: Date.now() + 86_400_000,
      timeZone: "Australia/Sydney",
      address: "1 George St, Sydney NSW 2000",
      priceCents: 4500,
      durationHours: 2,
      fromAge: 25,
      toAge: 35,
      totalSeats: 10,
    })
    .run();
}

describe("data files", () => {
  it("creates the database, its WAL and shared memory readable by the owner only", () => {
    const path = join(tempDir(), "data", "app.db");
    const db = openDatabase(path);
    writeSomething(db);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      expect({ file, mode: mode(file).toString(8) }).toEqual({ file, mode: "600" });
    }
    db.$client.close();
  });

  it("narrows a database file an older version left readable by others", () => {
    const path = join(tempDir(), "app.db");
    const first = openDatabase(path);
    writeSomething(first);
    first.$client.close();
    // As every release before this one left them (a clean close removes the WAL; a crash does not).
    writeFileSync(`${path}-wal`, "");
    for (const file of [path, `${path}-wal`]) chmodSync(file, 0o644);
    const db = openDatabase(path);
    writeSomething(db);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(mode(file)).toBe(0o600);
    expect(db.select().from(events).all()).toHaveLength(2);
    db.$client.close();
  });
});
