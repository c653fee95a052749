import { describe, expect, it } from "vitest";
import { pinClock } from "../test/clock.ts";
import { random } from "../test/seeded-random.ts";
import { type CancellationPolicy, policyText, refundDue } from "./cancellation.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

// The amount a guest's cancel gives back, as properties over seeded random policies, prices and
// moments (mulberry32, so a failure replays exactly).

const HOUR = 3_600_000;
const START = Date.UTC(2026, 11, 20, 7, 0);

describe("refundDue", () => {
  it("never gives back more than was paid nor less than nothing, full before the cut-off, the percentage after, nothing from the start", () => {
    const r = random(28);
    for (let i = 0; i < 5000; i++) {
      const policy: CancellationPolicy = { fullRefundHours: r.int(0, 720), laterPercent: r.int(0, 100) };
      const paid = r.int(50, 100_000_00);
      // Moments from 40 days before the start to 2 days after, with the edges themselves drawn often.
      const cutOff = START - policy.fullRefundHours * HOUR;
      const edges = [cutOff - 1, cutOff, cutOff + 1, START - 1, START, START + 1];
      const now = r.next() < 0.3 ? (edges[r.int(0, edges.length - 1)] as number) : START + r.int(-960, 48) * HOUR;
      const due = refundDue(policy, paid, START, now);
      const seen = { policy, paid, now: now - START };
      if (now >= START) {
        expect(due, JSON.stringify(seen)).toBeNull();
        continue;
      }
      expect(due, JSON.stringify(seen)).not.toBeNull();
      const cents = due as number;
      expect(Number.isInteger(cents)).toBe(true);
      expect(cents, JSON.stringify(seen)).toBeGreaterThanOrEqual(0);
      expect(cents, JSON.stringify(seen)).toBeLessThanOrEqual(paid);
      if (now < cutOff) expect(cents, JSON.stringify(seen)).toBe(paid);
      else expect(cents, JSON.stringify(seen)).toBe(Math.floor((paid * policy.laterPercent) / 100));
    }
  });

  it("gives back less, never more, as the start comes closer", () => {
    const r = random(7);
    for (let i = 0; i < 2000; i++) {
      const policy = { fullRefundHours: r.int(0, 200), laterPercent: r.int(0, 100) };
      const paid = r.int(50, 50_000);
      const earlier = START - r.int(1, 300 * HOUR);
      const later = earlier + r.int(0, START - 1 - earlier);
      const a = refundDue(policy, paid, START, earlier) as number;
      const b = refundDue(policy, paid, START, later) as number;
      expect(b).toBeLessThanOrEqual(a);
    }
  });

  it("is the default policy's: all of it until 48 hours before, then nothing", () => {
    const policy = { fullRefundHours: 48, laterPercent: 0 };
    expect(refundDue(policy, 4500, START, START - 48 * HOUR - 1)).toBe(4500);
    expect(refundDue(policy, 4500, START, START - 48 * HOUR)).toBe(0);
    expect(refundDue(policy, 4500, START, START - 1)).toBe(0);
    expect(refundDue(policy, 4500, START, START)).toBeNull();
  });
});

describe("policyText", () => {
  it("says the cut-off and what comes back after it", () => {
    expect(policyText({ fullRefundHours: 48, laterPercent: 0 })).toBe(
      "Cancel up to 48 hours before the start for a full refund; after that, no refund.",
    );
    expect(policyText({ fullRefundHours: 1, laterPercent: 50 })).toBe(
      "Cancel up to 1 hour before the start for a full refund; after that, 50% comes back until the start.",
    );
    expect(policyText({ fullRefundHours: 0, laterPercent: 0 })).toBe("Cancel before the start for a full refund.");
  });
});
