import { decideOverdueChoices } from "../booking/guest-choice.ts";
import { offerFreedSeats } from "../booking/waitlist-offers.ts";
import type { AppDeps } from "../deps.ts";
import { deliverPending } from "../messaging/outbox.ts";
import { queueDueReminders } from "../messaging/reminders.ts";
import { queueRatingReminders, releaseDueResults } from "../night/results.ts";
import { endOverdueEvents } from "../organiser/event-lifecycle.ts";
import { finishUnfinishedRefunds, UNFINISHED_CLAIM_MS } from "../organiser/refunds.ts";
import { prepareReports } from "../organiser/reports/backfill.ts";
import { checkMinimumNumbers } from "../organiser/short-of-numbers.ts";
import { backupIfDue } from "./backup-create.ts";
import { applyRetention } from "./retention.ts";
import type { Job } from "./scheduler.ts";
import { sweepUploads } from "./upload-sweep.ts";

const HOUR = 3_600_000;

/**
 * Runs `run` on the first tick and then whenever `everyMs` has passed on the clock the ticks carry.
 * It only saves effort (a folder listing every 30 seconds): the work itself is idempotent, so a
 * restart or a second server that runs it again changes nothing.
 */
export function paced(everyMs: number, run: (now: number) => unknown): (now: number) => unknown {
  let last: number | undefined;
  return (now) => {
    if (last !== undefined && now >= last && now - last < everyMs) return;
    last = now;
    return run(now);
  };
}

/**
 * Every background job, in the order a tick runs them: the ones that queue messages come before the
 * outbox, so what they queue goes out in the same tick. server.ts runs them; tests call them with a
 * moved clock.
 */
export function backgroundJobs(
  deps: Pick<AppDeps, "db" | "env" | "sms" | "payments" | "log" | "now"> &
    Partial<Pick<AppDeps, "mail" | "documentPdf" | "wallet" | "walletPush">>,
): Job[] {
  const uploads = { db: deps.db, uploadsDir: deps.env.UPLOADS_DIR };
  return [
    { name: "reminders", run: (now) => queueDueReminders(deps.db, deps.env, now) },
    // The night's end and its results (docs/decisions/021-results.md): a night nobody ended closes
    // 3 hours after its planned end; results go out at `resultsAt`; one rating reminder before that.
    { name: "auto-end", run: (now) => endOverdueEvents(deps, now) },
    { name: "release-results", run: (now) => releaseDueResults(deps, now) },
    // What the reports read that older rows lack: who came, and the guest key (issue 51).
    { name: "reports", run: paced(HOUR, (now) => prepareReports(deps, now)) },
    { name: "rating-reminders", run: (now) => queueRatingReminders(deps, now) },
    // Go ahead only with at least (docs/decisions/059-short-of-numbers.md): the check at minimumBy,
    // once per night; a night short of numbers alerts the organiser. Then the guests' choices of a
    // cancelled or moved night: the refund for whoever did not choose within 72 hours.
    { name: "minimum-numbers", run: (now) => checkMinimumNumbers(deps, now) },
    { name: "guest-choices", run: (now) => decideOverdueChoices(deps, now) },
    // Seats freed by the clock alone (a hold or an offer that ran out) go to the next in line (decision 015).
    { name: "waitlist-offers", run: (now) => offerFreedSeats(deps, now) },
    // Refunds claimed but never recorded (a crash, a provider failure), finished once they are no
    // longer in flight; a seat they give back is offered at once (docs/decisions/002-seats-holds-and-payment.md).
    { name: "refunds", run: paced(UNFINISHED_CLAIM_MS, (now) => finishUnfinishedRefunds(deps, now)) },
    // Messages whose first send failed (or that a crash interrupted) are retried here, texts and
    // emails and wallet updates alike (emails only with `mail`, wallet updates only with `walletPush`,
    // which server.ts passes whenever a wallet is configured).
    // Announcements' marketing goes at INVITE_RATE_PER_MINUTE at most (issue 36).
    { name: "outbox", run: () => deliverPending({ ...deps, marketingPerMinute: deps.env.INVITE_RATE_PER_MINUTE }) },
    // Photos of holds that ran out and files no row names (docs/decisions/012-disk-and-personal-data.md).
    { name: "upload-sweep", run: paced(HOUR, (now) => sweepUploads(uploads, now)) },
    // RETENTION_DAYS after an event, its attendees' personal data; old SMS text (decision 012).
    {
      name: "retention",
      run: paced(HOUR, (now) =>
        applyRetention({ ...uploads, retentionDays: deps.env.RETENTION_DAYS, log: deps.log }, now),
      ),
    },
    // With BACKUP_DIR set: a backup when the newest there is BACKUP_EVERY_HOURS old; last, so it waits for the rest.
    { name: "backup", run: (now) => backupIfDue(deps, now) },
  ];
}
