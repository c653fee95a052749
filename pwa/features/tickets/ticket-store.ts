import { offlineDb, type SavedTicket, ticketKey } from "../../lib/offline-db.ts";

export type { SavedTicket } from "../../lib/offline-db.ts";

/** A ticket as a paid booking's reply gives it; the store adds its key, the time and the status. */
export type TicketFields = Omit<SavedTicket, "key" | "savedAt" | "status" | "statusCheckedAt">;

/**
 * Keeps a confirmed ticket on the device, so it shows at the door without a network. Only a paid
 * booking's reply is ever saved, so its status is `paid` as of now.
 */
export async function saveTicket(ticket: TicketFields): Promise<SavedTicket> {
  const saved = asSavedTicket(ticket);
  const db = await offlineDb();
  await db.put("tickets", saved);
  // Ask the browser not to evict tickets under storage pressure; it may say no, which is fine.
  // Not awaited: Firefox answers with a permission prompt, and the ticket must show meanwhile.
  void navigator.storage?.persist?.().catch(() => false);
  return saved;
}

/** A paid booking's ticket as this device keeps it: shown as is where storage refuses to keep it. */
export function asSavedTicket(ticket: TicketFields, now = Date.now()): SavedTicket {
  return {
    ...ticket,
    key: ticketKey(ticket.eventID, ticket.userID),
    savedAt: now,
    status: "paid",
    statusCheckedAt: now,
  };
}

/** Every saved ticket, the soonest event first (those without a date last). */
export async function listTickets(): Promise<SavedTicket[]> {
  const db = await offlineDb();
  const all = await db.getAll("tickets");
  return all.sort((a, b) => (a.eventDateTime ?? "9999").localeCompare(b.eventDateTime ?? "9999"));
}

export async function getTicket(eventID: number, userID: number): Promise<SavedTicket | undefined> {
  return (await offlineDb()).get("tickets", ticketKey(eventID, userID));
}

/** What the server says of a saved ticket now: its status and its event's public details. */
export type TicketNews = Pick<
  SavedTicket,
  | "status"
  | "eventName"
  | "eventDateTime"
  | "eventLocation"
  | "timeZone"
  | "durationHours"
  | "amountCents"
  | "cancellationPolicy"
  | "invoiceNumber"
>;

/**
 * Writes the news into the stored ticket, read and written in one transaction so a ticket saved
 * again meanwhile (the success page, the texted link) is never overwritten with an older copy.
 */
export async function recordTicketNews(key: string, news: TicketNews, at = Date.now()) {
  const tx = (await offlineDb()).transaction("tickets", "readwrite");
  const current = await tx.store.get(key);
  const next = current ? { ...current, ...news, statusCheckedAt: at } : undefined;
  if (next) await tx.store.put(next);
  await tx.done;
  return next;
}

/** A ticket this phone knows is no longer valid (its guest cancelled it here): written at once. */
export async function markTicket(key: string, status: SavedTicket["status"], at = Date.now()) {
  const tx = (await offlineDb()).transaction("tickets", "readwrite");
  const current = await tx.store.get(key);
  if (current) await tx.store.put({ ...current, status, statusCheckedAt: at });
  await tx.done;
}
