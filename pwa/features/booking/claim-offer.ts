import { api, CallFailed, type Ok, send } from "../../lib/api.ts";

/** The claimed seat: which event, the phone it was offered to, the gender's seat, the name given when joining and how long it is kept. */
export type Claim = Omit<Ok<(typeof api)["claim-offer"]["$post"]>, "success">;

export type ClaimOutcome =
  | { kind: "claimed"; claim: Claim }
  /** 410: the offer ran out, was withdrawn or was already used. */
  | { kind: "gone" }
  /** 403 (a forged or mangled link) or 400/404: nothing this link can do. */
  | { kind: "invalid" }
  | { kind: "failed" };

async function post(o: string, t: string): Promise<ClaimOutcome> {
  try {
    const reply = await send(api["claim-offer"].$post({ json: { o: Number(o), t } }));
    if (reply.ok) {
      const { eventID, phone, gender, name, expiresAt } = reply.data;
      return { kind: "claimed", claim: { eventID, phone, gender, name, expiresAt } };
    }
    if (reply.data.code === "gone") return { kind: "gone" };
    if (reply.status >= 500 || reply.status === 429) return { kind: "failed" };
    return { kind: "invalid" };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}

// Claiming uses the offer up, so one page load claims once: React's development double effects,
// or a re-render, get the same answer instead of a second call that would say "already used".
const inFlight = new Map<string, Promise<ClaimOutcome>>();

/** Opens the offer link `?o=&t=`: proves the phone (the server marks this browser verified) and keeps the seat. */
export function claimOffer(o: string, t: string): Promise<ClaimOutcome> {
  if (!/^\d{1,15}$/.test(o) || !t) return Promise.resolve({ kind: "invalid" });
  const key = `${o}:${t}`;
  let claim = inFlight.get(key);
  if (!claim) {
    claim = post(o, t);
    inFlight.set(key, claim);
    // A failed call (offline) may be retried; an answer stays.
    void claim.then((outcome) => {
      if (outcome.kind === "failed") inFlight.delete(key);
    });
  }
  return claim;
}
