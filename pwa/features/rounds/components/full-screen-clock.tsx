import { useEffect, useRef } from "react";

type Props = { round: string; time: string; onClose(): void };

/**
 * Only `Round 3 of 9` and the time, as large as the screen allows, for a laptop on a projector. A
 * modal <dialog> (the console behind it is inert, Escape closes it) taking the browser's full
 * screen where it is allowed; leaving the browser's full screen leaves this view too.
 */
export function FullScreenClock({ round, time, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  // The time changes every second; the dialog must not close and reopen with it.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const onCancel = (e: Event) => {
      e.preventDefault();
      close.current();
    };
    let entered = false;
    const onFullscreenChange = () => {
      if (document.fullscreenElement) entered = true;
      else if (entered) close.current();
    };
    dialog.addEventListener("cancel", onCancel);
    document.addEventListener("fullscreenchange", onFullscreenChange);
    if (!dialog.open) dialog.showModal?.();
    // Some browsers (an iPhone's) have no full screen for pages: the dialog alone covers the window.
    document.documentElement.requestFullscreen?.().catch(() => undefined);
    return () => {
      dialog.removeEventListener("cancel", onCancel);
      document.removeEventListener("fullscreenchange", onFullscreenChange);
      if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => undefined);
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog ref={ref} className="rounds-fullscreen" aria-label="Round clock">
      <p className="rounds-fs-round">{round}</p>
      <p className="rounds-fs-time">{time}</p>
      <button type="button" className="rounds-fs-exit" onClick={onClose}>
        Leave full screen
      </button>
    </dialog>
  );
}
