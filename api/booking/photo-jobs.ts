import type { Db } from "../../db/client.ts";
import { DomainError, NotAnImage } from "../lib/errors.ts";

/**
 * The photos this process is still storing for seats it has already held and answered (issue 38,
 * docs/decisions/007-scale.md): a first save is told its seat is held once its photo has arrived and
 * its header reads as an image, and the photo is decoded, re-encoded and attached after the reply.
 * Whatever needs the photo waits here first: the checkout (nobody pays for a seat whose photo is
 * missing), the shutdown (a photo half stored is finished, not lost), and tests.
 *
 * Keyed by the users row the save answered with (`userID`, what the checkout is called with). A photo
 * that fails gives its seat back (holds.ts) and is remembered here for as long as the seat would have
 * been held, so the checkout can say why instead of "expired".
 */
export type PhotoJobs = {
  /**
   * Records the work storing the photo of `userId` (booked by `phone`) at `now`; a failure is kept
   * until `forgetAt` (epoch ms), when the seat would have lapsed anyway.
   */
  track(userId: number, work: Promise<unknown>, about: { phone: string; now: number; forgetAt: number }): void;
  /** Waits for `userId`'s photo if it is still being stored; never throws. */
  wait(userId: number): Promise<void>;
  /** How `userId`'s photo failed, and whose it was, if it failed and is not yet forgotten at `now`. */
  failure(userId: number, now: number): { error: DomainError; phone: string } | undefined;
  /** wait, then throws the failure's error, if any: what the checkout does first. */
  settle(userId: number, now: number): Promise<void>;
  /** Waits until every photo in progress is stored or failed (shutdown, tests). */
  idle(): Promise<void>;
  /** How many photos are still being stored. */
  readonly pending: number;
};

const jobsByDb = new WeakMap<Db, PhotoJobs>();

/** The one registry per database: the routes, the checkout and the server's shutdown share it. */
export function photoJobsOf(db: Db): PhotoJobs {
  let jobs = jobsByDb.get(db);
  if (!jobs) {
    jobs = createPhotoJobs();
    jobsByDb.set(db, jobs);
  }
  return jobs;
}

function createPhotoJobs(): PhotoJobs {
  const running = new Map<number, Promise<void>>();
  const failed = new Map<number, { error: DomainError; phone: string; forgetAt: number }>();
  const jobs: PhotoJobs = {
    track(userId, work, { phone, now, forgetAt }) {
      // Failures nobody asked about are let go once their seat would have lapsed anyway.
      for (const [id, failure] of failed) if (failure.forgetAt <= now) failed.delete(id);
      failed.delete(userId);
      const settled = work.then(
        () => undefined,
        (error: unknown) => {
          // Only what a client may be told; anything else reads as a photo that could not be read.
          const told = error instanceof DomainError ? error : NotAnImage("your photo could not be read");
          failed.set(userId, { error: told, phone, forgetAt });
        },
      );
      running.set(userId, settled);
      void settled.then(() => {
        if (running.get(userId) === settled) running.delete(userId);
      });
    },
    async wait(userId) {
      await running.get(userId);
    },
    failure(userId, now) {
      const failure = failed.get(userId);
      if (failure && failure.forgetAt <= now) failed.delete(userId);
      return failure && failure.forgetAt > now ? { error: failure.error, phone: failure.phone } : undefined;
    },
    async settle(userId, now) {
      await jobs.wait(userId);
      const failure = jobs.failure(userId, now);
      if (failure) throw failure.error;
    },
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
    get pending() {
      return running.size;
    },
  };
  return jobs;
}
