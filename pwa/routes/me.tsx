import { useEffect, useRef } from "react";
import { useSearchParams } from "react-router-dom";
import { MeSignIn } from "../features/me/components/me-sign-in.tsx";
import { MyNightsList } from "../features/me/components/my-nights.tsx";
import { useMyNights } from "../features/me/use-my-nights.ts";
import { readCancelTarget } from "../features/tickets/cancel-booking.ts";
import { TicketList } from "../features/tickets/components/ticket-list.tsx";
import { ErrorNotice } from "../lib/error-notice.tsx";
import "../features/me/me.css";

/** What a phone not signed in keeps: the tickets saved on it, as /tickets shows them. */
function SavedTickets() {
  return (
    <section className="me-saved" aria-labelledby="me-saved-title">
      <h2 id="me-saved-title">Tickets saved on this phone</h2>
      <TicketList level={3} />
    </section>
  );
}

/**
 * My nights (docs/decisions/027-guest-identity.md): signed out, the sign-in and this phone's saved
 * tickets; signed in, every night of the number, grouped, each upcoming ticket saved on the phone.
 * `?cancel={eventID}-{userID}` is a ticket's **Cancel my booking** on a phone not signed in: once
 * signed in, that booking's question opens.
 */
export function MePage() {
  const { state, reload, refresh, signOut, deleted, sessionGone } = useMyNights();
  const [search, setSearch] = useSearchParams();
  const cancelTarget = readCancelTarget(search);
  const cancelDone = () =>
    setSearch(
      (current) => {
        const rest = new URLSearchParams(current);
        rest.delete("cancel");
        return rest;
      },
      { replace: true },
    );
  const cancelling =
    state.status === "signed-in" && cancelTarget
      ? state.data.nights.some(
          (n) => n.standing === "upcoming" && n.eventID === cancelTarget.eventID && n.userID === cancelTarget.userID,
        )
      : false;
  const heading = useRef<HTMLHeadingElement>(null);
  // Signing in or out replaces the page under the focus: it goes back to the heading.
  const previous = useRef(state.status);
  const cancellingRef = useRef(cancelling);
  cancellingRef.current = cancelling;
  useEffect(() => {
    const was = previous.current;
    previous.current = state.status;
    // Come to cancel a ticket: the focus is on that question instead (cancel-booking.tsx).
    if (cancellingRef.current && state.status === "signed-in") return;
    if ((was === "signed-out" || was === "signed-in") && was !== state.status && state.status !== "loading") {
      heading.current?.focus();
    }
  }, [state.status]);
  return (
    <main className="page me-page">
      <h1 ref={heading} tabIndex={-1}>
        My nights
      </h1>
      <p className="me-lead">
        Every night booked with your mobile, in one place: your tickets for the door, your results and matches,
        cancellations and refunds.
      </p>
      {state.status === "loading" ? (
        <p className="empty" role="status" aria-busy="true">
          Loading your nights…
        </p>
      ) : state.status === "signed-in" ? (
        <>
          {cancelTarget && !cancelling ? (
            <p className="notice" role="status">
              The booking you came to cancel isn't an upcoming one of this number. Sign out and sign in with the mobile
              it was booked with, or find it below.
            </p>
          ) : null}
          <MyNightsList
            data={state.data}
            onSignOut={signOut}
            onDeleted={deleted}
            onSessionGone={sessionGone}
            onChanged={refresh}
            cancelTarget={cancelling ? cancelTarget : null}
            onCancelDone={cancelDone}
          />
        </>
      ) : (
        <>
          {state.status === "deleted" ? (
            <p className="notice ok" role="status">
              Your details are deleted: names, email, date of birth and photos are gone from your bookings, and nothing
              is kept for next time. You are signed out.
            </p>
          ) : null}
          {cancelTarget && state.status === "signed-out" ? (
            <p className="notice" role="status">
              To cancel your booking, sign in with the mobile it was booked with. Its cancel opens here, with what comes
              back, before anything is cancelled.
            </p>
          ) : null}
          {state.status === "signed-out" || state.status === "deleted" ? (
            <MeSignIn onSignedIn={() => void reload()} />
          ) : state.status === "offline" ? (
            <p className="notice" role="status">
              Your nights can't be loaded without a connection. The tickets saved on this phone still work.
            </p>
          ) : (
            <ErrorNotice message="We couldn't load your nights just now." onRetry={reload} />
          )}
          <SavedTickets />
        </>
      )}
    </main>
  );
}
