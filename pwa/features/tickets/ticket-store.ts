import { offlineDb, type SavedTicket, ticketKey } from "../../lib/offline-db.ts";

export type { SavedTicket } from "../../lib/offline-db.ts";

/** Keeps a confirmed ticket on the device, so it shows at the door without a network. */
export async function saveTicket(ticket: Omit<SavedTicket, "key" | "savedAt">): Promise<SavedTicket> {
  const saved: SavedTicket = { ...ticket, key: ticketKey(ticket.eventID, ticket.userID), savedAt: Date.now() };
  const db = await offlineDb();
  await db.put("tickets", saved);
  // Ask the browser not to evict tickets under storage pressure; it may say no, which is fine.
  // Not awaited: Firefox answers with a permission prompt, and the ticket must show meanwhile.
  void navigator.storage?.persist?.().catch(() => false);
  return saved;
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
