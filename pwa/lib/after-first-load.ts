/**
 * Runs `work` once the page has loaded, the network has had time to go quiet and the main thread is
 * idle: for code nothing on the first screen needs (the service worker's registration and update
 * prompt), so a phone's first visit spends its bandwidth and CPU on the page itself, and the home
 * page's JavaScript stays within its budget (docs/decisions/007-scale.md). Returns a cancel function.
 */
export function afterFirstLoad(work: () => void, quietMs = 2_000): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  const whenIdle = () => {
    // Safari has no requestIdleCallback: the timer alone then decides.
    if (typeof requestIdleCallback === "function") idle = requestIdleCallback(work, { timeout: quietMs });
    else work();
  };
  const afterLoad = () => {
    timer = setTimeout(whenIdle, quietMs);
  };
  if (document.readyState === "complete") afterLoad();
  else window.addEventListener("load", afterLoad, { once: true });
  return () => {
    window.removeEventListener("load", afterLoad);
    if (timer !== undefined) clearTimeout(timer);
    if (idle !== undefined && typeof cancelIdleCallback === "function") cancelIdleCallback(idle);
  };
}
