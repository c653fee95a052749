import { useCallback, useRef, useState } from "react";

/**
 * A polite live region that outlives what it reports on: the region is on the page before anything is
 * said in it (a screen reader announces a change in a live region, not a region that appears), and it
 * takes the focus when it speaks, because the control pressed has usually just gone (a cancelled
 * ticket moves to another list).
 */
export function useAnnouncement() {
  const [text, setText] = useState("");
  const ref = useRef<HTMLParagraphElement>(null);
  const announce = useCallback((next: string) => {
    setText(next);
    requestAnimationFrame(() => ref.current?.focus());
  }, []);
  const region = (
    <p className={text ? "notice ok" : "sr-only"} role="status" tabIndex={-1} ref={ref}>
      {text}
    </p>
  );
  return { announce, region };
}
