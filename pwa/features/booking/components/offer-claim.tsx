import { useCallback, useEffect, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { bookingStepPath, paths } from "../../../app/paths.ts";
import { CallFailed } from "../../../lib/api.ts";
import { ErrorNotice } from "../../../lib/error-notice.tsx";
import { getEvent } from "../../events/index.ts";
import { useBookingStore } from "../booking-store.ts";
import { type Claim, claimOffer } from "../claim-offer.ts";

type State =
  | { kind: "claiming" }
  | { kind: "gone" }
  | { kind: "invalid" }
  | { kind: "failed" }
  /** Claimed, but the event could not be loaded: only the event is fetched again. */
  | { kind: "event-failed"; claim: Claim };

/**
 * The waitlist SMS link `/waitlist-offer?o=&t=`. Claiming proves the phone (the server marks this
 * browser verified for it), then the usual details form opens for that event with the offer's gender.
 * The page replaces itself in history: Back and a reload stay on the details form, since a claimed
 * offer cannot be claimed again.
 */
export function OfferClaim({ o, t }: { o: string; t: string }) {
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ kind: "claiming" });

  const open = useCallback(
    async (claim: Claim) => {
      try {
        const reply = await getEvent(claim.eventID);
        if (!reply.ok || !reply.data) throw new Error(`event ${claim.eventID}: HTTP ${reply.status}`);
        useBookingStore.getState().begin(reply.data, {
          verifiedPhone: claim.phone,
          // A one-pool night's line has no gender: its booking form asks what its format asks.
          offer: {
            ...(claim.gender === "male" || claim.gender === "female" ? { gender: claim.gender } : {}),
            name: claim.name,
            expiresAt: claim.expiresAt,
          },
        });
        navigate(bookingStepPath("otpVerification", claim.eventID), { replace: true });
      } catch (error) {
        if (!(error instanceof CallFailed)) console.warn(error);
        setState({ kind: "event-failed", claim });
      }
    },
    [navigate],
  );

  const claim = useCallback(async () => {
    setState({ kind: "claiming" });
    const outcome = await claimOffer(o, t);
    if (outcome.kind === "claimed") await open(outcome.claim);
    else setState({ kind: outcome.kind });
  }, [o, t, open]);

  useEffect(() => {
    void claim();
  }, [claim]);

  if (state.kind === "claiming") {
    return (
      <p className="empty" role="status" aria-busy="true">
        Opening your offer…
      </p>
    );
  }
  if (state.kind === "failed" || state.kind === "event-failed") {
    return (
      <ErrorNotice
        message="We couldn't open your offer. Please check your connection and try again."
        onRetry={state.kind === "failed" ? claim : () => open(state.claim)}
      />
    );
  }
  return (
    <div className="notice" role="alert">
      <p>{state.kind === "gone" ? "This offer has expired or was already used." : "This link is not valid."}</p>
      <p>
        <Link to={paths.home}>Back to upcoming events</Link>
      </p>
    </div>
  );
}
