/**
 * SPEC.md section 8's refund batch: one call per selected participant, one "Refund Failed" per
 * error, then the two closing alerts, shown whatever happened (the spec's wording and spelling).
 * Calls go one after another so the provider sees a steady trickle, not a burst.
 */
export async function runRefundBatch(
  paymentIntentIds: string[],
  refundOne: (paymentIntentId: string) => Promise<boolean>,
  alert: (message: string) => void,
): Promise<{ succeeded: number; failed: number }> {
  let failed = 0;
  for (const id of paymentIntentIds) {
    let ok = false;
    try {
      ok = await refundOne(id);
    } catch (error) {
      console.warn("refund call failed", error);
    }
    if (!ok) {
      failed++;
      alert("Refund Failed");
    }
  }
  alert(`Refund initiated for ${paymentIntentIds.length} participant(s)`);
  alert("Refund Successfull");
  return { succeeded: paymentIntentIds.length - failed, failed };
}
