import { useState } from "react";
import { Link } from "react-router-dom";
import { useAnnouncement } from "../../../lib/announcement.tsx";
import { formatPhone } from "../../booking/index.ts";
import { CancelBooking, TicketCard, ticketFromReply } from "../../tickets/index.ts";
import { creditedByCancel, creditZone } from "../credit-lines.ts";
import type { MyNight, MyNights } from "../me-api.ts";
import { MarketingChoices } from "./marketing-choices.tsx";
import { MyCreditPanel } from "./my-credit.tsx";
import { MyData } from "./my-data.tsx";
import { PastNight, VoidNight } from "./night-cards.tsx";
import "../me.css";

type Grouped = {
  upcoming: Extract<MyNight, { standing: "upcoming" }>[];
  past: Extract<MyNight, { standing: "past" }>[];
  ended: Extract<MyNight, { standing: "cancelled" | "refunded" | "transferred" }>[];
};

/** The server's order within each group (upcoming soonest first, the rest latest first). */
function grouped(nights: MyNight[]): Grouped {
  const groups: Grouped = { upcoming: [], past: [], ended: [] };
  for (const night of nights) {
    if (night.standing === "upcoming") groups.upcoming.push(night);
    else if (night.standing === "past") groups.past.push(night);
    else groups.ended.push(night);
  }
  return groups;
}

/** The signed-in guest's nights, grouped as /me shows them, and **Sign out**. */
export function MyNightsList({
  data,
  onSignOut,
  onDeleted,
  onSessionGone,
  onChanged,
  cancelTarget,
  onCancelDone,
}: {
  data: MyNights;
  onSignOut: () => Promise<boolean>;
  /** **Delete my details** erased them and ended the session. */
  onDeleted: () => void;
  /** The session ended elsewhere (signed out, or erased on another phone). */
  onSessionGone: () => void;
  /** A night changed here (a cancel): load the list again. */
  onChanged: () => void;
  /** The booking a ticket's **Cancel my booking** came here to cancel: its question opens at once. */
  cancelTarget?: { eventID: number; userID: number } | null;
  /** That cancel is settled (done): /me stops asking it. */
  onCancelDone?: () => void;
}) {
  const { upcoming, past, ended } = grouped(data.nights);
  const { announce, region } = useAnnouncement();
  const cancelled = (announcement: string) => {
    announce(announcement);
    onCancelDone?.();
    onChanged();
  };
  return (
    <>
      <SignedInAs phone={data.phone} onSignOut={onSignOut} />
      {region}
      {data.nights.length === 0 ? (
        <div className="empty">
          <p>No nights are booked with this number yet. Book an event and it appears here, ticket and all.</p>
          <Link className="button primary" to="/">
            Browse events
          </Link>
        </div>
      ) : null}
      <MyCreditPanel credit={data.credit} zone={creditZone(data.nights)} />
      {upcoming.length > 0 ? (
        <section className="night-group" aria-labelledby="me-upcoming">
          <h2 id="me-upcoming">Upcoming</h2>
          <p className="hint">Each ticket is saved on this phone too, so it shows at the door without a connection.</p>
          <ul className="ticket-list">
            {upcoming.map((night) => (
              <li key={night.bookingId}>
                <TicketCard ticket={{ ...ticketFromReply(night.ticket), status: "paid" }} headingLevel={3} />
                <CancelBooking
                  eventID={night.eventID}
                  userID={night.userID}
                  eventName={night.eventName}
                  eventDate={night.eventDate}
                  amountCents={night.amountCents}
                  policy={night.cancellationPolicy}
                  creditUntil={night.creditUntil}
                  onCancelled={cancelled}
                  startOpen={cancelTarget?.eventID === night.eventID && cancelTarget.userID === night.userID}
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {past.length > 0 ? (
        <section className="night-group" aria-labelledby="me-past">
          <h2 id="me-past">Past</h2>
          <ul className="night-list">
            {past.map((night) => (
              <li key={night.bookingId}>
                <PastNight night={night} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {ended.length > 0 ? (
        <section className="night-group" aria-labelledby="me-ended">
          <h2 id="me-ended">Cancelled and refunded</h2>
          <ul className="night-list">
            {ended.map((night) => (
              <li key={night.bookingId}>
                <VoidNight night={night} credited={creditedByCancel(data.credit, night.eventName)} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <MarketingChoices onSignedOut={onSessionGone} />
      <MyData onDeleted={onDeleted} onSignedOut={onSessionGone} />
    </>
  );
}

function SignedInAs({ phone, onSignOut }: { phone: string; onSignOut: () => Promise<boolean> }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const signOut = async () => {
    setBusy(true);
    setFailed(false);
    const ended = await onSignOut();
    setBusy(false);
    setFailed(!ended);
  };
  return (
    <div className="me-account">
      <p>
        Signed in as <strong>{formatPhone(phone)}</strong>
      </p>
      <button type="button" className="button" onClick={() => void signOut()} disabled={busy} aria-busy={busy}>
        Sign out
      </button>
      <p className="message error" role="alert">
        {failed ? "Couldn't sign out. Check your connection and try again." : null}
      </p>
    </div>
  );
}
