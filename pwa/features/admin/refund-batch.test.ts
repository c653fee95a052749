import { describe, expect, it, vi } from "vitest";
import { type RefundOutcome, runRefundBatch } from "./refund-batch.ts";

describe("runRefundBatch", () => {
  it("refunds each selected payment once, alerts each failure, and says how many of the batch went through", async () => {
    const calls: string[] = [];
    const alerts: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const result = await runRefundBatch(
      ["pi_a", "pi_b", "pi_c"],
      async (id): Promise<RefundOutcome> => {
        calls.push(id);
        if (id === "pi_c") throw new Error("offline");
        return id === "pi_b" ? { ok: false, reason: "the payment provider did not make the refund" } : { ok: true };
      },
      (m) => alerts.push(m),
    ).finally(() => warn.mockRestore());
    expect(calls).toEqual(["pi_a", "pi_b", "pi_c"]);
    expect(alerts).toEqual([
      "Refund Failed",
      "Refund Failed",
      "Refund initiated for 3 participant(s)",
      "Refunded 1 of 3",
    ]);
    expect(result.succeeded).toBe(1);
    expect(result.failed).toBe(2);
    expect(Object.fromEntries(result.results)).toEqual({
      pi_a: { ok: true },
      pi_b: { ok: false, reason: "the payment provider did not make the refund" },
      pi_c: { ok: false, reason: "The server could not be reached." },
    });
  });

  it("says Refund Successfull only when every refund went through", async () => {
    const alerts: string[] = [];
    const result = await runRefundBatch(
      ["pi_a", "pi_b"],
      async () => ({ ok: true }),
      (m) => alerts.push(m),
    );
    expect(alerts).toEqual(["Refund initiated for 2 participant(s)", "Refund Successfull"]);
    expect(result).toMatchObject({ succeeded: 2, failed: 0 });
  });

  it("never says Refund Successfull when every refund failed", async () => {
    const alerts: string[] = [];
    await runRefundBatch(
      ["pi_a", "pi_b"],
      async () => ({ ok: false, reason: "no" }),
      (m) => alerts.push(m),
    );
    expect(alerts).toEqual([
      "Refund Failed",
      "Refund Failed",
      "Refund initiated for 2 participant(s)",
      "Refunded 0 of 2",
    ]);
  });
});
