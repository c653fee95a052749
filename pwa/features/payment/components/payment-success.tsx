import { useState } from "react";
import { Link } from "react-router-dom";
import { nationalPhone } from "../../../../common/national-phone.ts";
import "../payment.css";
import { useAnnouncement } from "../../../lib/announcement.tsx";
import { ErrorNotice } from "../../../lib/error-notice.tsx";
import { type SavedTicket, TicketCancel, TicketCard } from "../../tickets/index.ts";
import { type SuccessParams, usePaymentConfirmation } from "../confirm-payment.ts";
import { NoMatchPromiseLine } from "./no-match-promise-line.tsx";

export function PaymentSuccess({ params }: { params: SuccessParams | null }) {
  const { state, retry } = usePaymentConfirmation(params);
  const { announce, region } = useAnnouncement();
  // A cancel made here: the ticket shows as no longer valid at once (the saved copy is marked too).
  const [cancelledAs, setCancelledAs] = useState<SavedTicket["status"] | null>(null);
  if (state.status === "loading") {
    return (
      <p className="empty" role="status" aria-busy="true">
        Confirming your payment and preparing your ticket…
      </p>
    );
  }
  if (state.status === "texted") {
    return (
      <section className="payment-success" aria-labelledby="texted-heading">
        <div className="notice ok" role="status">
          <p id="texted-heading">
            <strong>Your ticket has been texted to you.</strong>
          </p>
          <p>
            Open the link in the text message sent to the phone number you booked with, to add the ticket to this phone.
            If you just paid, the text arrives as soon as your payment is confirmed.
          </p>
        </div>
        <Link className="button primary" to="/tickets">
          My tickets
        </Link>
      </section>
    );
  }
  if (state.status === "error") {
    return (
      <ErrorNotice message={state.message} onRetry={state.canRetry ? retry : undefined}>
        {state.canRetry ? null : <Link to="/">Back to events</Link>}
      </ErrorNotice>
    );
  }
  return (
    <section className="payment-success" aria-labelledby="ticket-heading">
      <p className="notice ok" id="ticket-heading">
        {params?.paidByCredit ? "Paid with your credit." : "Payment received."} You're booked! We've also texted your
        code to {state.ticket.phone ? <span className="phone">{nationalPhone(state.ticket.phone)}</span> : "your phone"}
        .
      </p>
      {region}
      {params ? <NoMatchPromiseLine eventID={params.eventID} /> : null}
      <TicketCard ticket={cancelledAs ? { ...state.ticket, status: cancelledAs } : state.ticket} />
      <p className="message" role="status">
        {state.saved
          ? "Your ticket is saved on this device, so it shows at the door even without a connection."
          : "This browser couldn't save the ticket: download the QR or keep the text message."}
      </p>
      <Link className="button primary" to="/tickets">
        My tickets
      </Link>
      {cancelledAs ? null : (
        <TicketCancel
          ticket={state.ticket}
          onCancelled={(announcement, status) => {
            setCancelledAs(status);
            announce(announcement);
          }}
        />
      )}
    </section>
  );
}
