import { useEffect } from "react";

/**
 * Adds `<script src>` to the body while the calling component is mounted and takes it out again
 * when it unmounts, so the third-party script never lingers on the app's other pages. A script that
 * fails to load (blocked, offline) is ignored: the page does not depend on it.
 */
export function useExternalScript(src: string | undefined) {
  useEffect(() => {
    if (!src) return;
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.referrerPolicy = "no-referrer";
    document.body.appendChild(script);
    return () => script.remove();
  }, [src]);
}
