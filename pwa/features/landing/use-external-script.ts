import { useEffect } from "react";

/**
 * Adds `<script src integrity>` to the body while the calling component is mounted and takes it out
 * again when it unmounts, so the third-party script never lingers on the app's other pages. Without
 * an integrity hash nothing is added: the browser runs the file only if its bytes match the hash, so
 * a compromised CDN cannot run its own code here. `crossorigin="anonymous"` is what lets the browser
 * check a file from another origin, and sends no cookies with it. A script that fails to load
 * (blocked, offline, tampered) is ignored: the page does not depend on it.
 */
export function useExternalScript(src: string | undefined, integrity: string | undefined) {
  useEffect(() => {
    if (!src || !integrity) return;
    const script = document.createElement("script");
    script.src = src;
    script.integrity = integrity;
    script.crossOrigin = "anonymous";
    script.async = true;
    script.referrerPolicy = "no-referrer";
    document.body.appendChild(script);
    return () => script.remove();
  }, [src, integrity]);
}
