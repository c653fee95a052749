import { useEffect, useState } from "react";
import { apiGet } from "../../lib/api.ts";

/** GET /api/public-config: the non-secret settings api/routes/config.ts exposes. */
export type PublicConfig = {
  supportEmail: string;
  companySiteUrl: string;
  navbarScriptUrl: string;
  /** The script's Subresource Integrity hash; a config cached before it existed has none, and then the script is not loaded. */
  navbarScriptIntegrity?: string;
  stripePublishableKey: string | null;
  eventTimeZone: string;
};

export const getPublicConfig = (signal?: AbortSignal) => apiGet<PublicConfig>("/api/public-config", signal);

type State = { status: "loading" } | { status: "error" } | { status: "ready"; config: PublicConfig };

const isConfig = (data: unknown): data is PublicConfig =>
  typeof data === "object" &&
  data !== null &&
  "supportEmail" in data &&
  typeof data.supportEmail === "string" &&
  "companySiteUrl" in data &&
  typeof data.companySiteUrl === "string" &&
  "navbarScriptUrl" in data &&
  typeof data.navbarScriptUrl === "string" &&
  (!("navbarScriptIntegrity" in data) || typeof data.navbarScriptIntegrity === "string");

/** The landing page's links and third-party script depend on this; the page still works without it. */
export function usePublicConfig(): State {
  const [state, setState] = useState<State>({ status: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    getPublicConfig(controller.signal)
      .then((reply) => {
        if (controller.signal.aborted) return;
        setState(reply.ok && isConfig(reply.data) ? { status: "ready", config: reply.data } : { status: "error" });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setState({ status: "error" });
      });
    return () => controller.abort();
  }, []);
  return state;
}
