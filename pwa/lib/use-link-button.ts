import { type RefObject, useEffect, useRef, useState } from "react";

export type LinkButtonState = "checking" | "ready" | "busy" | "done" | "invalid" | "failed";

/**
 * A page a signed email link opens, with one button (Unsubscribe, the email-consent confirmation):
 * opening it only checks the link (mail scanners open links); offline or a server hiccup still offers
 * the button, whose answer decides; the result line takes the focus once there is one.
 */
export function useLinkButton<L>(
  link: L | null,
  check: (link: L) => Promise<"valid" | "invalid" | "failed">,
  act: (link: L) => Promise<"done" | "invalid" | "failed">,
): { state: LinkButtonState; press: () => Promise<void>; result: RefObject<HTMLParagraphElement | null> } {
  const [state, setState] = useState<LinkButtonState>(link ? "checking" : "invalid");
  const result = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (!link) return;
    let current = true;
    void check(link).then((answer) => {
      if (current) setState(answer === "invalid" ? "invalid" : "ready");
    });
    return () => {
      current = false;
    };
  }, [link, check]);

  useEffect(() => {
    if (state === "done" || state === "failed") result.current?.focus();
  }, [state]);

  const press = async () => {
    if (!link) return;
    setState("busy");
    setState(await act(link));
  };
  return { state, press, result };
}
