import { useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { api, CallFailed, send } from "../../lib/api.ts";
import { type ReplyState, useReply } from "../../lib/use-reply.ts";
import { asSavedTicket, getTicket, type SavedTicket, saveTicket, ticketFromReply } from "../tickets/index.ts";

/** The query parameters of the success URL (`successUrl` in api/booking/checkout.ts). */
export type SuccessParams = {
  sessionId: string;
  userID: number;
  eventID: number;
  eventName: string;
  amount: string;
  userEmail: string;
  phone: string;
  /**
   * A booking paid wholly by credit (issue 52): no checkout at the provider, so no `session_id`; the
   * ticket is read from My nights, whose session showed the credit (`/success?paid=credit&…`).
   */
  paidByCredit?: boolean;
};

export const PAYMENT_INTENT_KEY = "paymentIntentId";

export function readSuccessParams(search: URLSearchParams): SuccessParams | null {
  const userID = Number(search.get("userID"));
  const eventID = Number(search.get("eventID"));
  const sessionId = search.get("session_id") ?? "";
  const paidByCredit = search.get("paid") === "credit";
  if (
    (!sessionId && !paidByCredit) ||
    !Number.isInteger(userID) ||
    userID <= 0 ||
    !Number.isInteger(eventID) ||
    eventID <= 0
  )
    return null;
  return {
    sessionId,
    userID,
    eventID,
    eventName: search.get("eventName") ?? "",
    amount: search.get("amount") ?? "",
    userEmail: search.get("userEmail") ?? "",
    phone: search.get("phone") ?? "",
    ...(paidByCredit ? { paidByCredit } : {}),
  };
}

/** What the success URL says about the person rather than the payment: the page needs neither to reload. */
const PERSONAL_PARAMS = ["userEmail", "phone"] as const;

/**
 * The success URL's parameters, read once; then the email and the phone are taken out of the address
 * bar by replacing the history entry, so they stay in neither the history nor a screenshot. What the
 * page needs to load again (the session and the ids) stays.
 */
export function useSuccessParams(): SuccessParams | null {
  const [search, setSearch] = useSearchParams();
  const [params] = useState(() => readSuccessParams(search));
  const personal = PERSONAL_PARAMS.some((name) => search.has(name));
  useEffect(() => {
    if (!personal) return;
    setSearch(
      (current) => {
        const rest = new URLSearchParams(current);
        for (const name of PERSONAL_PARAMS) rest.delete(name);
        return rest;
      },
      { replace: true },
    );
  }, [personal, setSearch]);
  return params;
}

type Confirmed =
  | { status: "error"; message: string; canRetry: boolean }
  | { status: "ready"; ticket: SavedTicket; saved: boolean }
  /** This browser did not verify the booking's phone (403): the ticket went by SMS instead. */
  | { status: "texted" };

export type ConfirmState = ReplyState<Confirmed, string>;

const NOT_PAID =
  "Your payment hasn't been confirmed yet. If you just paid, give it a moment and try again; you won't be charged twice.";
const FAILED = "We couldn't confirm your booking just now. Please try again.";

/**
 * The server shows the ticket only to the browser that verified the booking's phone. Any other (an
 * installed app on iOS, whose storage is apart from Safari's, or someone holding the success URL)
 * gets 403; the page then shows the ticket if this device already saved it, and otherwise says it
 * was texted, since the confirmation SMS carries a link that adds it here.
 */
async function textedOrSaved(params: SuccessParams): Promise<Confirmed> {
  const saved = await getTicket(params.eventID, params.userID).catch(() => undefined);
  return saved ? { status: "ready", ticket: saved, saved: true } : { status: "texted" };
}

/** The ticket saved on this phone, or shown unsaved when the browser refuses to keep it. */
async function saved(ticket: ReturnType<typeof ticketFromReply>): Promise<Confirmed> {
  try {
    return { status: "ready", ticket: await saveTicket(ticket), saved: true };
  } catch (error) {
    // Private browsing can refuse IndexedDB; the ticket still shows and the SMS has the code.
    console.error(error);
    return { status: "ready", ticket: asSavedTicket(ticket), saved: false };
  }
}

/**
 * A booking paid wholly by credit (docs/decisions/057-credit.md) is paid when the checkout call
 * answers: its ticket is My nights' upcoming night of this event and user, saved on the phone as a
 * paid return's is.
 */
async function creditTicket(params: SuccessParams): Promise<Confirmed> {
  const reply = await send(api.me.$get());
  if (!reply.ok) return textedOrSaved(params);
  const night = reply.data.nights.find(
    (n) => n.standing === "upcoming" && n.eventID === params.eventID && n.userID === params.userID,
  );
  if (night?.standing !== "upcoming") return { status: "error", message: FAILED, canRetry: true };
  return saved(ticketFromReply(night.ticket));
}

/** Steps the success page through its flow: payment intent → local storage → confirmation → saved ticket. */
export async function confirmPayment(params: SuccessParams): Promise<Confirmed> {
  try {
    if (params.paidByCredit) return await creditTicket(params);
    const session = await send(api["checkout-session"].$get({ query: { session_id: params.sessionId } }));
    if (!session.ok) {
      if (session.data.code === "phone_not_verified") return textedOrSaved(params);
      if (session.data.code === "not_found") {
        return { status: "error", message: "We couldn't find this payment. Please check the link.", canRetry: false };
      }
      return { status: "error", message: FAILED, canRetry: true };
    }
    const { paid, paymentIntentId } = session.data;
    if (!paid || !paymentIntentId) return { status: "error", message: NOT_PAID, canRetry: true };
    localStorage.setItem(PAYMENT_INTENT_KEY, paymentIntentId);

    const reply = await send(
      api["send-confirmation"].$post({
        json: {
          userID: params.userID,
          userEmail: params.userEmail,
          eventID: params.eventID,
          eventName: params.eventName,
          userPhone: params.phone,
          paymentIntentId,
        },
      }),
    );
    if (!reply.ok) {
      if (reply.data.code === "phone_not_verified") return textedOrSaved(params);
      return reply.data.code === "refunded"
        ? {
            status: "error",
            message:
              "Sorry, the last seat went while you were paying, so your payment has been refunded in full. It can take a few days to appear.",
            canRetry: false,
          }
        : { status: "error", message: reply.status === 409 ? NOT_PAID : FAILED, canRetry: true };
    }
    return await saved(ticketFromReply(reply.data));
  } catch (error) {
    console.error(error);
    if (error instanceof CallFailed) {
      const saved = await getTicket(params.eventID, params.userID).catch(() => undefined);
      if (saved) return { status: "ready", ticket: saved, saved: true };
      return { status: "error", message: "You seem to be offline. Reconnect and try again.", canRetry: true };
    }
    return { status: "error", message: FAILED, canRetry: true };
  }
}

export function usePaymentConfirmation(params: SuccessParams | null) {
  const { state, reload } = useReply(params ? `${params.sessionId}:${params.userID}:${params.eventID}` : "", {
    load: async (): Promise<Confirmed> =>
      params
        ? confirmPayment(params)
        : { status: "error", message: "This page needs the link from the payment page.", canRetry: false },
    failed: (): Confirmed => ({ status: "error", message: FAILED, canRetry: true }),
  });
  return { state, retry: reload };
}
