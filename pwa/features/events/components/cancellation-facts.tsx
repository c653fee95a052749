import { type CancellationPolicy, CONSUMER_LAW_NOTE, policyText } from "../../../../common/cancellation.ts";

/**
 * The event's cancellation policy as one row of a facts list (the event card's details, the
 * confirmation page), with the Australian Consumer Law sentence (docs/decisions/028). An event kept
 * from before the policy existed (a booking saved on this phone) shows nothing rather than a guess.
 */
export function CancellationFacts({ policy }: { policy: CancellationPolicy | undefined }) {
  if (!policy) return null;
  return (
    <div className="event-cancellation">
      <dt>Cancelling</dt>
      <dd>{policyText(policy)}</dd>
      <dd>{CONSUMER_LAW_NOTE}</dd>
    </div>
  );
}
