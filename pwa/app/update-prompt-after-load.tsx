import { type ComponentType, useEffect, useState } from "react";
import { afterFirstLoad } from "../lib/after-first-load.ts";

// The service worker's registration and update prompt (with workbox-window) load after the first
// load has settled: nothing on the first screen needs them, and the home page's JavaScript has a
// budget counted over everything fetched before the network is idle (docs/decisions/007-scale.md).
/**
 * The update prompt (and with it the service worker's registration), fetched once the first load has
 * settled. A phone that is offline by then (patchy venue Wi-Fi) fetches it when it is back online:
 * a browser keeps a failed module fetch for the rest of the page's life, so it is not asked for while
 * offline, and a fetch that fails anyway never throws on the page.
 */
export function UpdatePromptAfterLoad() {
  const [prompt, setPrompt] = useState<{ Component: ComponentType } | null>(null);
  useEffect(() => {
    let stopped = false;
    const load = () => {
      if (stopped) return;
      if (!navigator.onLine) {
        window.addEventListener("online", load, { once: true });
        return;
      }
      import("./update-prompt.tsx").then(
        (module) => {
          if (!stopped) setPrompt({ Component: module.UpdatePrompt });
        },
        () => undefined,
      );
    };
    const cancel = afterFirstLoad(load);
    return () => {
      stopped = true;
      cancel();
      window.removeEventListener("online", load);
    };
  }, []);
  return prompt ? <prompt.Component /> : null;
}
