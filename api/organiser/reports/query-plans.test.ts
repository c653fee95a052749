import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../../../db/client.ts";
import { invitationsReport } from "./invitations.ts";
import { matchesReport } from "./matches.ts";
import { moneyReport } from "./money.ts";
import { periodOf } from "./period.ts";
import { pricesReport } from "./prices.ts";
import { returningReport } from "./returning.ts";
import { seatsReport } from "./seats.ts";

// Five years of a busy organiser answer each report in a quarter of a second only through the
// indexes migration 0034 added (issue 51, "Speed"; bench/README.md, "Reports"). SQLite's planner
// chooses them by the shape of each report's SQL, so a change to the SQL could quietly go back to
// reading every booking or every rating: each report's plan is checked to still name its index. On a
// migrated file: SQLite plans without row counts (no ANALYZE), so an empty file plans as a full one.

const dir = mkdtempSync(join(tmpdir(), "sdt-report-plans-"));
const db = openDatabase(join(dir, "app.db"));
afterAll(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The plan SQLite makes for the one statement `report` runs, as its lines of detail. */
function planOf(report: (db: Db, period: ReturnType<typeof periodOf>) => unknown): string[] {
  const sqlite = db.$client;
  let ran: { source: string; params: unknown[] } | undefined;
  const recording = {
    prepare: (source: string) => {
      const statement = sqlite.prepare(source);
      return {
        all: (...params: unknown[]) => {
          ran = { source, params };
          return statement.all(...params);
        },
      };
    },
  } as unknown as Database.Database;
  const recorded = drizzle(recording) as unknown as Db;
  report(recorded, periodOf("2020-07", "2025-06", "Australia/Sydney"));
  if (!ran) throw new Error("the report ran no statement");
  return (sqlite.prepare(`EXPLAIN QUERY PLAN ${ran.source}`).all(...ran.params) as { detail: string }[]).map(
    (row) => row.detail,
  );
}

describe("the reports' query plans", () => {
  it.each([
    [
      "money",
      moneyReport,
      ["COVERING INDEX bookings_paid", "COVERING INDEX refunds_created_at", "COVERING INDEX documents_issued_at"],
    ],
    ["seats", seatsReport, ["INDEX bookings_paid_event"]],
    ["matches", matchesReport, ["COVERING INDEX feedback_pair", "COVERING INDEX bookings_paid_user"]],
    [
      "returning",
      returningReport,
      ["COVERING INDEX bookings_paid", "COVERING INDEX bookings_guest_key", "kept_details_kept_at"],
    ],
    ["prices", pricesReport, ["INDEX bookings_paid "]],
    ["invitations", invitationsReport, ["COVERING INDEX outbox_messages_announcement", "INDEX bookings_announcement"]],
  ] as const)("%s reads its indexes", (_name, report, indexes) => {
    const plan = planOf(report).join("\n");
    for (const index of indexes) expect(plan).toContain(index);
  });

  it("matches groups each pair's choices in the index's order, with no sort of the ratings", () => {
    const plan = planOf(matchesReport);
    const pairs = plan.findIndex((line) => line.includes("feedback_pair"));
    expect(pairs).toBeGreaterThanOrEqual(0);
    expect(plan[pairs + 1]).not.toMatch(/TEMP B-TREE FOR GROUP BY/);
  });
});
