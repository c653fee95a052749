import { useCallback, useEffect, useRef } from "react";

/**
 * How long after a read whose call could not be made, while the browser says it is online, to read
 * again: the `online` event often comes before the network carries anything (a phone joining the
 * venue's Wi-Fi), and one lost read would leave the screen showing what it knew before. A read is
 * not a write: nothing is kept to send later, so unlike the offline queue's backoff
 * (lib/offline-queue.ts) it stops after a few tries; the next `online` or Try again reads afresh.
 */
const ASK_AGAIN_MS = [1_000, 3_000, 10_000, 30_000];

/**
 * For a screen that reads again when the network returns. After a read, `missed()` if its call could
 * not be made: `ask` runs again 1, 3, 10 and 30 s later, while the browser says it is online;
 * `reached()` if it got through, which stops and resets that. Nothing runs after the screen is gone.
 */
export function useAskAgain(ask: () => void) {
  const again = useRef<{ tries: number; timer?: ReturnType<typeof setTimeout>; gone: boolean }>({
    tries: 0,
    gone: false,
  });
  const latest = useRef(ask);
  latest.current = ask;
  useEffect(() => {
    const state = again.current;
    state.gone = false;
    return () => {
      // A read still on its way when the screen went may yet call `missed`: nothing is asked then.
      state.gone = true;
      clearTimeout(state.timer);
    };
  }, []);
  const reached = useCallback(() => {
    clearTimeout(again.current.timer);
    again.current.tries = 0;
  }, []);
  const missed = useCallback(() => {
    const state = again.current;
    clearTimeout(state.timer);
    const wait = ASK_AGAIN_MS[state.tries];
    if (wait === undefined || state.gone || !navigator.onLine) {
      state.tries = 0;
      return;
    }
    state.tries += 1;
    state.timer = setTimeout(() => latest.current(), wait);
  }, []);
  return { missed, reached };
}
