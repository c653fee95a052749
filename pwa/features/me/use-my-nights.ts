import { useCallback, useEffect, useRef } from "react";
import { useAskAgain } from "../../lib/ask-again.ts";
import { useOnline } from "../../lib/use-online.ts";
import { type ReplyState, useReply } from "../../lib/use-reply.ts";
import { saveTicket, ticketFromReply } from "../tickets/index.ts";
import { getMyNights, type MeOutcome, signOut } from "./me-api.ts";

/** What /me shows once its reply settles: the reply's outcome, or the details just deleted here. */
export type MeShown = MeOutcome | { status: "deleted" };
export type MeState = ReplyState<MeShown, string>;

/**
 * /me's state, read through useReply (docs/decisions/049-one-hook-for-a-reply.md): loading, signed
 * out, signed in with the number's nights, offline or failed. Each upcoming night's ticket is saved
 * on this phone as soon as it arrives, as the success page and the texted link save theirs, so it
 * shows at the door without a network (docs/decisions/004-offline.md). Opened offline, the page says
 * so without asking; it reads again, in place, when the network comes back, and a few times more
 * while the call cannot be made though the browser says online (lib/ask-again.ts).
 */
export function useMyNights() {
  const online = useOnline();
  // Sign out, Delete my details or a lapsed session end the session: a read on its way then answers
  // for a session that is over, so what the ending showed stays.
  const ended = useRef<{ count: number; shown: MeShown }>({ count: 0, shown: { status: "signed-out" } });
  const opened = useRef(false);
  const { missed, reached } = useAskAgain(() => void refresh());
  const { state, setState, reload, refresh } = useReply("me", {
    async load(_: string, show: (first: MeShown) => void): Promise<MeShown> {
      const first = !opened.current;
      opened.current = true;
      if (first && !navigator.onLine) return { status: "offline" };
      const at = ended.current.count;
      const outcome = await getMyNights();
      if (outcome.status === "offline") missed();
      else reached();
      if (at !== ended.current.count) return ended.current.shown;
      if (outcome.status !== "signed-in") return outcome;
      show(outcome);
      await saveUpcoming(outcome);
      return at === ended.current.count ? outcome : ended.current.shown;
    },
    failed(error): MeShown {
      console.error(error);
      return { status: "failed" };
    },
  });
  const wasOnline = useRef(online);
  useEffect(() => {
    if (wasOnline.current === online) return;
    wasOnline.current = online;
    reached();
    if (online) void refresh();
    else setState((shown) => (shown.status === "loading" ? { status: "offline" } : shown));
  }, [online, refresh, setState, reached]);
  const end = useCallback(
    (shown: MeShown) => {
      ended.current = { count: ended.current.count + 1, shown };
      setState(shown);
    },
    [setState],
  );
  const leave = useCallback(async () => {
    const done = await signOut();
    if (done) end({ status: "signed-out" });
    return done;
  }, [end]);
  /** After **Delete my details**: the session is over; the page says the details are gone. */
  const deleted = useCallback(() => end({ status: "deleted" }), [end]);
  const sessionGone = useCallback(() => end({ status: "signed-out" }), [end]);
  // After a change made here (a cancel), the list is read again in place: no loading screen in between.
  const readAgain = useCallback(() => void refresh(), [refresh]);
  return { state, reload, refresh: readAgain, signOut: leave, deleted, sessionGone };
}

async function saveUpcoming(outcome: Extract<MeOutcome, { status: "signed-in" }>) {
  for (const night of outcome.data.nights) {
    if (night.standing !== "upcoming") continue;
    try {
      await saveTicket(ticketFromReply(night.ticket));
    } catch (error) {
      // A browser that refuses storage (private mode, full disk) still shows the ticket on the page.
      console.error(error);
    }
  }
}
