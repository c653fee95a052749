import { api, send } from "../../lib/api.ts";
import { type ReplyState, useReply } from "../../lib/use-reply.ts";

/** What the /privacy page reads from the server's settings (GET /api/public-config). */
export type PrivacyFacts = { retentionDays: number | null; supportEmail: string | null; businessName: string | null };

type Settled = { status: "ready"; facts: PrivacyFacts };

export type PrivacyFactsState = ReplyState<Settled, string>;

const unknownFacts: Settled = {
  status: "ready",
  facts: { retentionDays: null, supportEmail: null, businessName: null },
};

/**
 * RETENTION_DAYS and the support address, as the server is configured. A failed call, or a config
 * cached by the service worker before it carried `retentionDays`, leaves them null and the page says
 * so in words instead of a number: there is no error state and no **Try again**.
 */
export function usePrivacyFacts(): PrivacyFactsState {
  return useReply<Settled, string>("public-config", {
    async load(): Promise<Settled> {
      const reply = await send(api["public-config"].$get());
      const data: Partial<Record<string, unknown>> = reply.ok ? reply.data : {};
      return {
        status: "ready",
        facts: {
          retentionDays: typeof data.retentionDays === "number" && data.retentionDays > 0 ? data.retentionDays : null,
          supportEmail: typeof data.supportEmail === "string" ? data.supportEmail : null,
          businessName: typeof data.businessName === "string" ? data.businessName : null,
        },
      };
    },
    failed: () => unknownFacts,
  }).state;
}
