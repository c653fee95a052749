import { useEffect, useRef } from "react";
import { Dialog } from "../../../components/ui/dialog.tsx";

type Props = {
  round: string;
  time: string;
  /** A changeover between rounds: the screen shows a break card instead of the round. */
  onBreak?: boolean;
  /** What the break card says comes next (`Round 4 starts in`), or that the rounds end. */
  next?: string;
  paused?: boolean;
  /** The host's **Announce**, while its round lasts (issue 37). */
  announcement?: string | null;
  onClose(): void;
};

/**
 * The room's screen (issue 37), for a laptop on a projector or a TV: the round and the clock as large
 * as the screen allows, a break card during a changeover, and the host's announcement. A modal
 * <dialog> (the console behind it is inert, Escape closes it) taking the browser's full screen where
 * it is allowed; leaving the browser's full screen leaves this view too. It counts from the last
 * state it knew, so a dropped connection never stops the clock on the wall.
 */
export function FullScreenClock({ round, time, onBreak = false, next, paused = false, announcement, onClose }: Props) {
  // The time changes every second; the dialog opens once (components/ui/dialog.tsx) and so does this.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    let entered = false;
    const onFullscreenChange = () => {
      if (document.fullscreenElement) entered = true;
      else if (entered) close.current();
    };
    document.addEventListener("fullscreenchange", onFullscreenChange);
    // Some browsers (an iPhone's) have no full screen for pages: the dialog alone covers the window.
    document.documentElement.requestFullscreen?.().catch(() => undefined);
    return () => {
      document.removeEventListener("fullscreenchange", onFullscreenChange);
      if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => undefined);
    };
  }, []);
  return (
    <Dialog
      className={`rounds-fullscreen${onBreak ? " on-break" : ""}`}
      aria-label={onBreak ? "Break" : "Round clock"}
      onClose={onClose}
    >
      {onBreak ? (
        <div className="rounds-fs-break">
          <p className="rounds-fs-round">Break</p>
          <p className="rounds-fs-next">{next ?? "Change tables"}</p>
        </div>
      ) : (
        <p className="rounds-fs-round">{round}</p>
      )}
      <p className="rounds-fs-time">{time}</p>
      {paused ? <p className="rounds-fs-paused">Paused</p> : null}
      {announcement ? <p className="rounds-fs-announcement">{announcement}</p> : null}
      <button type="button" className="rounds-fs-exit" onClick={onClose}>
        Leave full screen
      </button>
    </Dialog>
  );
}
