import { useRef } from "react";
import { useSearchParams } from "react-router-dom";
import { type ApiReply, api, CallFailed, send } from "../../lib/api.ts";
import { type ReplyState, useReply } from "../../lib/use-reply.ts";
import { type TicketReply, ticketFromReply } from "./ticket-reply.ts";
import { asSavedTicket, type SavedTicket, saveTicket } from "./ticket-store.ts";

/**
 * The confirmation SMS's link, `/tickets?add={bookingId}&t={token}`: a capability that shows the
 * ticket and saves it on whatever phone opens it (an installed app on iOS keeps its storage apart
 * from Safari, where the card checkout returned).
 */
export type TicketLink = { bookingId: number; token: string };

const ID = /^[1-9]\d{0,15}$/;

/** The link in a query; "incomplete" when it names a ticket but something is cut off; null when absent. */
export function readTicketLink(search: URLSearchParams): TicketLink | "incomplete" | null {
  const add = search.get("add");
  const token = search.get("t");
  if (add === null && token === null) return null;
  if (!add || !ID.test(add) || !token || token.length > 200) return "incomplete";
  return { bookingId: Number(add), token };
}

/** What opening a link came to; none when the address names no ticket. */
type Opened =
  | { status: "none" }
  | { status: "error"; message: string; canRetry: boolean }
  | { status: "added"; ticket: SavedTicket; saved: boolean };

export type TicketLinkState = ReplyState<Opened, string>;

export const INCOMPLETE_TICKET_LINK =
  "This ticket link is incomplete. Please open the whole link from your text message again.";
const INVALID = "This ticket link isn't valid. Please open the link from your text message again.";
const FAILED = "We couldn't open your ticket just now. Please try again.";

/** Asks the server for the linked ticket and keeps it on this device. */
export async function openTicketLink(link: TicketLink): Promise<Opened> {
  let reply: ApiReply<TicketReply>;
  try {
    reply = await send(api.ticket.$post({ json: { bookingId: link.bookingId, t: link.token } }));
  } catch (error) {
    console.error(error);
    return error instanceof CallFailed
      ? { status: "error", message: "You seem to be offline. Reconnect and try again.", canRetry: true }
      : { status: "error", message: FAILED, canRetry: true };
  }
  if (!reply.ok) {
    const { code } = reply.data;
    if (code === "invalid_link" || code === "invalid_request" || code === "not_found") {
      return { status: "error", message: INVALID, canRetry: false };
    }
    if (code === "not_transferable") {
      return {
        status: "error",
        message: "This ticket was given to a friend, so it is no longer valid: their own ticket gets them in.",
        canRetry: false,
      };
    }
    if (code === "refunded" || code === "booking_cancelled" || code === "not_paid") {
      return {
        status: "error",
        message:
          code === "refunded"
            ? "This booking was refunded, so its ticket is no longer valid."
            : code === "booking_cancelled"
              ? "You cancelled this booking, so its ticket is no longer valid."
              : "This booking isn't paid, so it has no ticket yet.",
        canRetry: false,
      };
    }
    if (code === "gone") {
      return { status: "error", message: "This ticket has expired: the event is long over.", canRetry: false };
    }
    return { status: "error", message: FAILED, canRetry: true };
  }
  const ticket = ticketFromReply(reply.data);
  try {
    return { status: "added", ticket: await saveTicket(ticket), saved: true };
  } catch (error) {
    // Private browsing can refuse IndexedDB; the ticket still shows and the text keeps the link.
    console.error(error);
    return {
      status: "added",
      ticket: asSavedTicket(ticket),
      saved: false,
    };
  }
}

/**
 * Opens the link in the page's query, if there is one. Once the ticket is saved the query is taken
 * out of the address (replaced, not pushed), so the token leaves the history and the screen.
 */
export function useTicketLink() {
  const [search, setSearch] = useSearchParams();
  const link = readTicketLink(search);
  // The last link opened: taking the query out of the address once it is saved reads nothing new.
  const opened = useRef<string | null>(null);
  if (link) opened.current = link === "incomplete" ? link : `${link.bookingId}:${link.token}`;
  const { state, reload } = useReply(opened.current, {
    async load(): Promise<Opened> {
      if (!link) return { status: "none" };
      if (link === "incomplete") return { status: "error", message: INCOMPLETE_TICKET_LINK, canRetry: false };
      const next = await openTicketLink(link);
      if (next.status === "added") {
        setSearch(
          (current) => {
            const rest = new URLSearchParams(current);
            rest.delete("add");
            rest.delete("t");
            return rest;
          },
          { replace: true },
        );
      }
      return next;
    },
    failed: (): Opened => ({ status: "error", message: FAILED, canRetry: true }),
  });
  return { state: state.status === "idle" ? NONE : state, retry: reload };
}

const NONE: Opened = { status: "none" };
