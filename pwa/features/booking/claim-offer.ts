import { apiPost, CallFailed } from "../../lib/api.ts";
import type { Gender } from "./types.ts";

export type Claim = { eventID: number; phone: string; gender: Gender; expiresAt: string };

export type ClaimOutcome =
  | { kind: "claimed"; claim: Claim }
  /** 410: the offer ran out, was withdrawn or was already used. */
  | { kind: "gone" }
  /** 403 (a forged or mangled link) or 400/404: nothing this link can do. */
  | { kind: "invalid" }
  | { kind: "failed" };

const isClaim = (data: unknown): data is Claim & { success: true } => {
  const d = data as Partial<Claim> & { success?: unknown };
  return (
    d?.success === true &&
    typeof d.eventID === "number" &&
    typeof d.phone === "string" &&
    (d.gender === "male" || d.gender === "female") &&
    typeof d.expiresAt === "string"
  );
};

async function post(o: string, t: string): Promise<ClaimOutcome> {
  try {
    const reply = await apiPost<unknown>("/api/claim-offer", { o: Number(o), t });
    if (reply.ok && isClaim(reply.data)) {
      const { eventID, phone, gender, expiresAt } = reply.data;
      return { kind: "claimed", claim: { eventID, phone, gender, expiresAt } };
    }
    if (reply.status === 410) return { kind: "gone" };
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
