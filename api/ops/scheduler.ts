import type { Logger } from "../lib/log.ts";

/**
 * One background job: "do X for every row that is due at `now`". A job keeps no state of its own
 * between runs; what it has done is recorded in the database (a unique key per kind and row), so a
 * restart, a second server or a retried run never does a thing twice.
 */
export type Job = { name: string; run(now: number): Promise<unknown> | unknown };

export type Scheduler = {
  /** Runs every job once, one after another; tests call it after moving the clock. */
  tick(): Promise<void>;
  start(): void;
  /** Stops the loop and waits for a run in progress to finish. */
  stop(): Promise<void>;
};

// Every 30 seconds: reminders and offers are due within a minute, and a run over an empty table is cheap.
export const TICK_MS = 30_000;

export function createScheduler(deps: { log: Logger; now: () => number }, jobs: Job[], everyMs = TICK_MS): Scheduler {
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | undefined;

  const runAll = async () => {
    for (const job of jobs) {
      try {
        await job.run(deps.now());
      } catch (error) {
        // One failing job never stops the others; it is simply tried again on the next tick.
        deps.log("error", `background job failed: ${job.name}`, { error: String(error).slice(0, 300) });
      }
    }
  };

  const tick = () => {
    // Ticks never overlap: a slow run (an SMS provider timing out) makes the next one wait for it.
    running ??= runAll().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    tick,
    start() {
      if (timer) return;
      timer = setInterval(() => void tick(), everyMs);
      timer.unref();
      void tick();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
