import { useEffect, useRef } from "react";
import { MeSignIn } from "../features/me/components/me-sign-in.tsx";
import { MyNightsList } from "../features/me/components/my-nights.tsx";
import { useMyNights } from "../features/me/use-my-nights.ts";
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
 */
export function MePage() {
  const { state, reload, refresh, signOut, deleted, sessionGone } = useMyNights();
  const heading = useRef<HTMLHeadingElement>(null);
  // Signing in or out replaces the page under the focus: it goes back to the heading.
  const previous = useRef(state.kind);
  useEffect(() => {
    const was = previous.current;
    previous.current = state.kind;
    if ((was === "signed-out" || was === "signed-in") && was !== state.kind && state.kind !== "loading") {
      heading.current?.focus();
    }
  }, [state.kind]);
  return (
    <main className="page me-page">
      <h1 ref={heading} tabIndex={-1}>
        My nights
      </h1>
      {state.kind === "loading" ? (
        <p className="empty" role="status" aria-busy="true">
          Loading your nights…
        </p>
      ) : state.kind === "signed-in" ? (
        <MyNightsList
          data={state.data}
          onSignOut={signOut}
          onDeleted={deleted}
          onSessionGone={sessionGone}
          onChanged={refresh}
        />
      ) : (
        <>
          {state.kind === "deleted" ? (
            <p className="notice ok" role="status">
              Your details are deleted: names, email, date of birth and photos are gone from your bookings, and nothing
              is kept for next time. You are signed out.
            </p>
          ) : null}
          {state.kind === "signed-out" || state.kind === "deleted" ? (
            <MeSignIn onSignedIn={() => void reload()} />
          ) : state.kind === "offline" ? (
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
