import { api, CallFailed, send } from "../../lib/api.ts";

// The confirmation email's link (docs/api.md, "Messages about future events"): `c` and `t` are the
// whole proof that the address's owner asked, and neither call answers whose address it is.

export type ConsentLink = { c: string; t: string };

/** Reads the link from the page's address; null when a part is missing. */
export function linkOf(search: URLSearchParams): ConsentLink | null {
  const c = search.get("c");
  const t = search.get("t");
  return c && t ? { c, t } : null;
}

/** Whether the link is one we signed; changes nothing. */
export async function checkLink(link: ConsentLink): Promise<"valid" | "invalid" | "failed"> {
  try {
    const reply = await send(api["confirm-email-consent"].$get({ query: link }));
    if (reply.ok) return "valid";
    return reply.status === 403 || reply.status === 400 ? "invalid" : "failed";
  } catch (error) {
    if (error instanceof CallFailed) return "failed";
    throw error;
  }
}

/** **Yes, email me about future events**: "done" once the server recorded it (a second tap is done too). */
export async function confirmEmails(link: ConsentLink): Promise<"done" | "invalid" | "failed"> {
  try {
    const reply = await send(api["confirm-email-consent"].$post({ query: link }));
    if (reply.ok) return "done";
    return reply.status === 403 || reply.status === 400 ? "invalid" : "failed";
  } catch (error) {
    if (error instanceof CallFailed) return "failed";
    throw error;
  }
}
