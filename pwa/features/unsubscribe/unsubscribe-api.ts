import { api, CallFailed, send } from "../../lib/api.ts";

// One-click unsubscribe (docs/api.md, "Messages about future events"): the link's `c` and `t` are the
// whole proof, and neither call answers whose address it is.

export type UnsubscribeLink = { c: string; t: string };

export type LinkCheck = "valid" | "invalid" | "failed";

/** Reads the link from the page's address; null when a part is missing. */
export function linkOf(search: URLSearchParams): UnsubscribeLink | null {
  const c = search.get("c");
  const t = search.get("t");
  return c && t ? { c, t } : null;
}

/** Whether the link is one we signed; changes nothing. */
export async function checkLink(link: UnsubscribeLink): Promise<LinkCheck> {
  try {
    const reply = await send(api.unsubscribe.$get({ query: link }));
    if (reply.ok) return "valid";
    return reply.status === 403 || reply.status === 400 ? "invalid" : "failed";
  } catch (error) {
    if (error instanceof CallFailed) return "failed";
    throw error;
  }
}

export type UnsubscribeOutcome = { kind: "done"; textsStillOn: boolean } | { kind: "invalid" } | { kind: "failed" };

/**
 * **Unsubscribe**: "done" once the server recorded it (a second tap is done too), saying whether a
 * number that booked with the address still takes texts (never which).
 */
export async function unsubscribe(link: UnsubscribeLink): Promise<UnsubscribeOutcome> {
  try {
    const reply = await send(api.unsubscribe.$post({ query: link }));
    if (reply.ok) return { kind: "done", textsStillOn: reply.data.textsStillOn };
    return reply.status === 403 || reply.status === 400 ? { kind: "invalid" } : { kind: "failed" };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}
