import type { Db } from "../../db/client.ts";
import { inboundSmsTaken } from "../../db/marketing-schema.ts";
import { recordConsent } from "./consent.ts";

// A text a person sent to our number (issue 36): the opt-out and opt-in keywords carriers and Twilio
// know. Only the first word counts, in any case, so "stop please" and " Stop" both opt out; any other
// text records nothing.

const OPT_OUT = new Set(["STOP", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"]);
const OPT_IN = new Set(["START"]);

export type InboundOutcome = "opted_out" | "opted_in" | "ignored";

/** What the text's first word asks for: false to opt out, true to opt back in, null for neither. */
export function keywordChoice(body: string): boolean | null {
  const word = body.trim().split(/\s+/)[0]?.toUpperCase() ?? "";
  if (OPT_OUT.has(word)) return false;
  if (OPT_IN.has(word)) return true;
  return null;
}

/**
 * Records the choice a text from `from` (E.164) makes about marketing texts to that number. A text
 * with Twilio's `sid` is taken once (issue 46): a repeat of a sid already taken is "ignored" and
 * changes nothing, so a replayed signed START cannot undo a later STOP.
 */
export function handleInboundSms(
  db: Db,
  input: { sid?: string; from: string; body: string; at: number },
): InboundOutcome {
  return db.transaction(
    (tx) => {
      if (input.sid !== undefined) {
        const taken = tx
          .insert(inboundSmsTaken)
          .values({ sid: input.sid, takenAt: input.at })
          .onConflictDoNothing({ target: inboundSmsTaken.sid })
          .run();
        if (taken.changes === 0) return "ignored";
      }
      const given = keywordChoice(input.body);
      if (given === null) return "ignored";
      // Recorded every time, even from a number never asked: the person's own words are the proof.
      recordConsent(tx, {
        channel: "sms",
        address: input.from,
        given,
        source: "inbound",
        phone: input.from,
        at: input.at,
      });
      return given ? "opted_in" : "opted_out";
    },
    { behavior: "immediate" },
  );
}
