import { describe, expect, it } from "vitest";
import { runRefundBatch } from "./refund-batch.ts";

describe("runRefundBatch", () => {
  it("refunds each selected payment once, alerts each failure, then the spec's two closing alerts", async () => {
    const calls: string[] = [];
    const alerts: string[] = [];
    const result = await runRefundBatch(
      ["pi_a", "pi_b", "pi_c"],
      async (id) => {
        calls.push(id);
        if (id === "pi_c") throw new Error("offline");
        return id !== "pi_b";
      },
      (m) => alerts.push(m),
    );
    expect(calls).toEqual(["pi_a", "pi_b", "pi_c"]);
    expect(alerts).toEqual([
      "Refund Failed",
      "Refund Failed",
      "Refund initiated for 3 participant(s)",
      "Refund Successfull",
    ]);
    expect(result).toEqual({ succeeded: 1, failed: 2 });
  });
});
