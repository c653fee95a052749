/** How one refund of a batch went: done, or why not (shown on that participant's row). */
export type RefundOutcome = { ok: true } | { ok: false; reason: string };

/**
 * The refund batch: one call per selected participant, one "Refund Failed" per error, then
 * "Refund initiated for N participant(s)". The panel first showed "Refund Successfull" whatever
 * happened; the organiser's desk (decision 014) shows it only when every refund went through, and
 * `Refunded N of M` otherwise, so a failed batch never reads as a success.
 * Calls go one after another so the provider sees a steady trickle, not a burst.
 */
export async function runRefundBatch(
  paymentIntentIds: string[],
  refundOne: (paymentIntentId: string) => Promise<RefundOutcome>,
  alert: (message: string) => void,
): Promise<{ succeeded: number; failed: number; results: Map<string, RefundOutcome> }> {
  const results = new Map<string, RefundOutcome>();
  for (const id of paymentIntentIds) {
    let outcome: RefundOutcome;
    try {
      outcome = await refundOne(id);
    } catch (error) {
      console.warn("refund call failed", error);
      outcome = { ok: false, reason: "The server could not be reached." };
    }
    results.set(id, outcome);
    if (!outcome.ok) alert("Refund Failed");
  }
  const succeeded = [...results.values()].filter((r) => r.ok).length;
  const total = paymentIntentIds.length;
  alert(`Refund initiated for ${total} participant(s)`);
  alert(succeeded === total ? "Refund Successfull" : `Refunded ${succeeded} of ${total}`);
  return { succeeded, failed: total - succeeded, results };
}
