import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/client.ts";
import { NotAnImage } from "../lib/errors.ts";
import { photoJobsOf } from "./photo-jobs.ts";

// The registry the checkout and the shutdown wait on (issue 38): a photo stored after its save's answer.

const deferred = () => {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
};

describe("photoJobsOf", () => {
  const jobs = () => photoJobsOf(openDatabase(":memory:"));

  it("makes the checkout wait for a photo still being stored, and lets it through once stored", async () => {
    const photos = jobs();
    const work = deferred();
    photos.track(7, work.promise, { phone: "+61400000007", now: 0, forgetAt: 1000 });
    const order: string[] = [];
    const settled = photos.settle(7, 10).then(() => order.push("settled"));
    // Every pending promise callback runs before this: a settle that did not wait would be in first.
    await new Promise((resolve) => setImmediate(resolve));
    order.push("stored");
    work.resolve();
    await settled;
    expect(order).toEqual(["stored", "settled"]);
    expect(photos.pending).toBe(0);
    expect(photos.failure(7, 10)).toBeUndefined();
  });

  it("throws a failed photo's error for its seat's time, to be told to the phone it was", async () => {
    const photos = jobs();
    const work = deferred();
    photos.track(8, work.promise, { phone: "+61400000008", now: 0, forgetAt: 1000 });
    work.reject(NotAnImage());
    await expect(photos.settle(8, 10)).rejects.toMatchObject({ status: 415, code: "not_an_image" });
    expect(photos.failure(8, 10)).toMatchObject({ phone: "+61400000008" });
    // Anything that is not a client's error is told as a photo that could not be read.
    const broken = deferred();
    photos.track(9, broken.promise, { phone: "+61400000009", now: 0, forgetAt: 1000 });
    broken.reject(new Error("disk full"));
    await expect(photos.settle(9, 10)).rejects.toMatchObject({ status: 415, code: "not_an_image" });
    // Once the seat would have lapsed anyway, the failure is let go.
    await expect(photos.settle(8, 1000)).resolves.toBeUndefined();
    expect(photos.failure(8, 1000)).toBeUndefined();
  });

  it("answers at once for a user with no photo in progress, and idle waits for every photo", async () => {
    const photos = jobs();
    await expect(photos.settle(1, 0)).resolves.toBeUndefined();
    const a = deferred();
    const b = deferred();
    photos.track(2, a.promise, { phone: "+61400000002", now: 0, forgetAt: 1000 });
    photos.track(3, b.promise, { phone: "+61400000003", now: 0, forgetAt: 1000 });
    expect(photos.pending).toBe(2);
    let idle = false;
    const waiting = photos.idle().then(() => {
      idle = true;
    });
    a.resolve();
    await a.promise;
    expect(idle).toBe(false);
    b.reject(NotAnImage());
    await waiting;
    expect(photos.pending).toBe(0);
  });
});
