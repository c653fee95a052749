import type { HostAccess } from "../../lib/admin-store.ts";
import { api, send } from "../../lib/api.ts";

/**
 * The host phone's two calls (docs/api.md, Host access and activity): sign in with the link's token,
 * and ask whether the session still lives. What the phone last heard is kept, so a reload at a venue
 * without a network still opens the door view (the server checks the session when it can).
 */

export const hostLogin = (token: string) => send(api["host-login"].$post({ json: { token } }));
export const hostSession = () => send(api["host-session"].$get());

const KEEP_KEY = "saathi.host";

export function keptHost(): HostAccess | null {
  try {
    const kept = JSON.parse(localStorage.getItem(KEEP_KEY) ?? "null") as Partial<HostAccess> | null;
    if (
      typeof kept?.eventID !== "number" ||
      typeof kept.label !== "string" ||
      typeof kept.eventName !== "string" ||
      typeof kept.timeZone !== "string" ||
      typeof kept.expiresAt !== "string" ||
      Date.parse(kept.expiresAt) <= Date.now()
    ) {
      return null;
    }
    return kept as HostAccess;
  } catch {
    return null;
  }
}

export function keepHost(host: HostAccess | null) {
  try {
    if (host) localStorage.setItem(KEEP_KEY, JSON.stringify(host));
    else localStorage.removeItem(KEEP_KEY);
  } catch {
    // Storage refused: offline reloads then need the network once more.
  }
}
