import { useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { ReplyView } from "../components/ui/reply-view.tsx";
import { useBookingStore } from "../features/booking/booking-store.ts";
import { BookingFlow } from "../features/booking/components/booking-flow.tsx";
import { EventSummaryCard } from "../features/booking/components/event-summary.tsx";
import { MissingState } from "../features/booking/components/missing-state.tsx";
import { type EventView, getEvent } from "../features/events/index.ts";
import { useReply } from "../lib/use-reply.ts";
import "../features/booking/booking.css";

/**
 * The night a friend's link (`/transfer?t={offer}.{event}.{signature}`) is for: its middle part, which
 * the signature covers (the server refuses a changed one). Null for a link cut short.
 */
function eventOfToken(token: string): number | null {
  const [, event] = token.split(".");
  const id = Number(event);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const loading = (
  <p className="empty" role="status" aria-busy="true">
    Loading the night…
  </p>
);

type Loaded = { status: "ready"; event: EventView } | { status: "missing" } | { status: "error" };

/**
 * `/transfer?t=`: a ticket given to a friend (docs/decisions/058-ticket-transfer.md). The booking flow
 * in transfer mode: the friend verifies the number the link was texted to (the code also signs them
 * in on /me), gives their details and photo, and the ticket becomes theirs, shown on /me.
 */
export function TransferPage() {
  const [search] = useSearchParams();
  const [token] = useState(() => search.get("t") ?? "");
  const eventID = eventOfToken(token);
  const { state, reload } = useReply<Loaded, number | null>(eventID, {
    async load(): Promise<Loaded> {
      const reply = await getEvent(eventID ?? 0);
      if (!reply.ok) return { status: "missing" };
      useBookingStore.getState().begin(reply.data, { transferToken: token });
      return { status: "ready", event: reply.data };
    },
    failed: () => ({ status: "error" }),
  });
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, []);
  return (
    <main className="page">
      <h1 className="page-heading">A ticket for you</h1>
      {eventID === null || state.status === "missing" ? (
        <MissingState message="This link is not complete. Open it again from the text you were sent." />
      ) : (
        <ReplyView
          state={state}
          loading={loading}
          idle={loading}
          error="We couldn't load this night. Please check your connection and try again."
          onRetry={() => void reload()}
        >
          {({ event }) => (
            <>
              <p>
                A friend gave you their ticket. Verify your mobile (the number the link was texted to) and add your
                details to get your own ticket.
              </p>
              <EventSummaryCard event={event} />
              <BookingFlow event={event} />
            </>
          )}
        </ReplyView>
      )}
    </main>
  );
}
