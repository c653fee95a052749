import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";

/**
 * How many connections the kernel keeps waiting for the server to accept. Node's default is 511: an
 * on-sale rush opens more at once, and a connection the full queue drops is tried again by the phone
 * only a second later (issue 38: a tenth of 2,000 buyers heard "sold out" a second late for it). The
 * kernel caps it at its own limit (net.core.somaxconn, 4,096 on current Linux).
 */
export const LISTEN_BACKLOG = 4096;

/** Serves `fetch` as @hono/node-server's `serve` does, with the backlog above. */
export function serveApp(
  options: { fetch: Parameters<typeof createAdaptorServer>[0]["fetch"]; port: number; hostname?: string },
  onListening?: (address: AddressInfo) => void,
) {
  const server = createAdaptorServer({ fetch: options.fetch, hostname: options.hostname });
  server.listen({ port: options.port, host: options.hostname, backlog: LISTEN_BACKLOG }, () =>
    onListening?.(server.address() as AddressInfo),
  );
  return server;
}
