import { type CancellationPolicy, CONSUMER_LAW_NOTE, policyText } from "../../../../common/cancellation.ts";

// Apart from cancellation-facts.tsx (the confirmation's facts list), so only this rides in the home page's first download.

/**
 * The policy on the event card: one line that opens to the policy and the Australian Consumer Law
 * sentence, so a card on the home page stays short (e2e/home.test.ts holds its height).
 */
export function CancellationDetails({ policy }: { policy: CancellationPolicy | undefined }) {
  if (!policy) return null;
  return (
    <details className="event-cancellation">
      <summary>Cancellation policy</summary>
      <p>{policyText(policy)}</p>
      <p>{CONSUMER_LAW_NOTE}</p>
    </details>
  );
}
