import { useAdminStore } from "../../lib/admin-store.ts";
import { participantsCsvUrl } from "./admin-api.ts";

/**
 * Export CSV: fetches the spreadsheet with the session cookie and hands it to the browser as a
 * download. Fetching first (rather than navigating to the URL) keeps a lapsed session in the panel:
 * a 401 brings back the password modal instead of a page of JSON.
 */
export async function downloadParticipantsCsv(eventId: number): Promise<"ok" | "locked" | "failed"> {
  let response: Response;
  try {
    response = await fetch(participantsCsvUrl(eventId), { credentials: "same-origin" });
  } catch (error) {
    console.warn(error);
    return "failed";
  }
  if (response.status === 401) {
    useAdminStore.getState().lock();
    return "locked";
  }
  if (!response.ok) return "failed";
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1];
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name ?? `event-${eventId}-participants.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the memory can go once the browser has read it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return "ok";
}
