import { api, type Ok, send } from "../../lib/api.ts";
import { useReply } from "../../lib/use-reply.ts";

/**
 * GET /api/public-config: the non-secret settings api/ops/config-routes.ts exposes. The script's
 * Subresource Integrity hash may be missing from a config cached before it existed; then the script
 * is not loaded.
 */
export type PublicConfig = Omit<Ok<(typeof api)["public-config"]["$get"]>, "navbarScriptIntegrity"> & {
  navbarScriptIntegrity?: string;
};

export const getPublicConfig = (signal?: AbortSignal) =>
  send(api["public-config"].$get(undefined, { init: { signal } }));

type State = { status: "error" } | { status: "ready"; config: PublicConfig };

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
export function usePublicConfig() {
  return useReply("config", {
    async load(): Promise<State> {
      const reply = await getPublicConfig();
      return reply.ok && isConfig(reply.data) ? { status: "ready", config: reply.data } : { status: "error" };
    },
    failed(error): State {
      console.error(error);
      return { status: "error" };
    },
  }).state;
}
