import { useRegisterSW } from "virtual:pwa-register/react";

/**
 * Registers the service worker and, when a new deployment is waiting, offers "Reload" instead of
 * swapping code under a page that may be mid-booking.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisterError(error) {
      console.warn("service worker registration failed", error);
    },
  });
  if (!needRefresh) return null;
  return (
    <div className="update-prompt" role="alertdialog" aria-labelledby="update-prompt-text">
      <span id="update-prompt-text">A new version of the app is available.</span>
      <button type="button" className="button primary" onClick={() => void updateServiceWorker(true)}>
        Reload
      </button>
      <button type="button" className="button" onClick={() => setNeedRefresh(false)}>
        Later
      </button>
    </div>
  );
}
