import { useEffect, useState } from "react";
import { api, send } from "../../lib/api.ts";

/** What the /privacy page reads from the server's settings (GET /api/public-config). */
export type PrivacyFacts = { retentionDays: number | null; supportEmail: string | null; businessName: string | null };

export type PrivacyFactsState = { status: "loading" } | { status: "ready"; facts: PrivacyFacts };

/**
 * RETENTION_DAYS and the support address, as the server is configured. A failed call, or a config
 * cached by the service worker before it carried `retentionDays`, leaves them null and the page says
 * so in words instead of a number.
 */
export function usePrivacyFacts(): PrivacyFactsState {
  const [state, setState] = useState<PrivacyFactsState>({ status: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    send(api["public-config"].$get(undefined, { init: { signal: controller.signal } }))
      .then((reply) => {
        if (controller.signal.aborted) return;
        const data: Partial<Record<string, unknown>> = reply.ok ? reply.data : {};
        setState({
          status: "ready",
          facts: {
            retentionDays: typeof data.retentionDays === "number" && data.retentionDays > 0 ? data.retentionDays : null,
            supportEmail: typeof data.supportEmail === "string" ? data.supportEmail : null,
            businessName: typeof data.businessName === "string" ? data.businessName : null,
          },
        });
      })
      .catch(() => {
        if (!controller.signal.aborted)
          setState({ status: "ready", facts: { retentionDays: null, supportEmail: null, businessName: null } });
      });
    return () => controller.abort();
  }, []);
  return state;
}
