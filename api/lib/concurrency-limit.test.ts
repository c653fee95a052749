import { expect, it } from "vitest";
import { concurrencyLimit } from "./concurrency-limit.ts";

it("runs at most `size` tasks at once, the rest in the order they came, even when one fails", async () => {
  const limit = concurrencyLimit(2);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const results = await Promise.allSettled(
    Array.from({ length: 6 }, (_, i) =>
      limit(async () => {
        started.push(i);
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        if (i === 1) throw new Error("refused");
        return i;
      }),
    ),
  );
  expect(most).toBe(2);
  expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  expect(results.map((r) => r.status)).toEqual([
    "fulfilled",
    "rejected",
    "fulfilled",
    "fulfilled",
    "fulfilled",
    "fulfilled",
  ]);
});
