import type { AppDeps } from "../deps.ts";
import { backupIfDue } from "./backup.ts";
import { deliverPending } from "./outbox.ts";
import { queueDueReminders } from "./reminders.ts";
import type { Job } from "./scheduler.ts";

/**
 * Every background job, in the order a tick runs them: the ones that queue messages come before the
 * outbox, so what they queue goes out in the same tick. server.ts runs them; tests call them with a
 * moved clock.
 */
export function backgroundJobs(deps: Pick<AppDeps, "db" | "env" | "sms" | "log" | "now">): Job[] {
  return [
    { name: "reminders", run: (now) => queueDueReminders(deps.db, deps.env, now) },
    // Messages whose first send failed (or that a crash interrupted) are retried here.
    { name: "outbox", run: () => deliverPending(deps) },
    // With BACKUP_DIR set: a backup when the newest there is BACKUP_EVERY_HOURS old; last, so it waits for the rest.
    { name: "backup", run: (now) => backupIfDue(deps, now) },
  ];
}
