import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { limitKey } from "./client-address.ts";
import { plainAddress } from "./trust-proxy.ts";

/**
 * How many connections the kernel keeps waiting for the server to accept. Node's default is 511: an
 * on-sale rush opens more at once, and a connection the full queue drops is tried again by the phone
 * only a second later (issue 38: a tenth of 2,000 buyers heard "sold out" a second late for it). The
 * kernel caps it at its own limit (net.core.somaxconn, 4,096 on current Linux).
 */
export const LISTEN_BACKLOG = 4096;

// Slow requests (issue 46): 4,000 half-sent POSTs from one address stayed open for Node's default
// 300 s. A phone on 3G uploads a 5 MB photo well inside two minutes (about 40 s at 1 Mbit/s), and
// sends its headers within seconds; a request slower than that is not a phone worth waiting for.

/** The whole request, headers and body, must have arrived within this (Node answers 408). */
export const REQUEST_TIMEOUT_MS = 120_000;
/** The headers must have arrived within this. */
export const HEADERS_TIMEOUT_MS = 20_000;
/** How often Node looks for requests past those limits. */
export const TIMEOUT_CHECK_INTERVAL_MS = 2_000;
/**
 * Connections open at once from one client address (an IPv6 client is its /64, as for rate limits,
 * client-address.ts); a new one over it is destroyed at once, before a byte of it is read. Room for a
 * venue's Wi-Fi behind one address: each phone holds the room's stream and a fetch or two.
 */
export const MAX_CONNECTIONS_PER_ADDRESS = 64;

export type ConnectionLimits = {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  checkIntervalMs: number;
  maxConnectionsPerAddress: number;
  /**
   * Peers not capped: the proxy in front, whose one address carries every client (TRUST_PROXY's, in
   * server.ts). The proxy limits connections per client itself (README, "Deploying it").
   */
  uncapped?: (address: string) => boolean;
  /** Told of each connection refused (server.ts logs it, at most once a minute per address). */
  onRefused?: (address: string) => void;
};

const DEFAULT_LIMITS: ConnectionLimits = {
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  checkIntervalMs: TIMEOUT_CHECK_INTERVAL_MS,
  maxConnectionsPerAddress: MAX_CONNECTIONS_PER_ADDRESS,
};

/** Serves `fetch` as @hono/node-server's `serve` does, with the backlog, timeouts and cap above. */
export function serveApp(
  options: {
    fetch: Parameters<typeof createAdaptorServer>[0]["fetch"];
    port: number;
    hostname?: string;
    limits?: Partial<ConnectionLimits>;
  },
  onListening?: (address: AddressInfo) => void,
) {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const server = createAdaptorServer({
    fetch: options.fetch,
    hostname: options.hostname,
    serverOptions: {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
  });
  capConnectionsPerAddress(server as Server, limits);
  server.listen({ port: options.port, host: options.hostname, backlog: LISTEN_BACKLOG }, () =>
    onListening?.(server.address() as AddressInfo),
  );
  return server;
}

function capConnectionsPerAddress(server: Server, limits: ConnectionLimits) {
  if (!Number.isFinite(limits.maxConnectionsPerAddress)) return;
  // One entry per address with a connection open; removed with its last connection.
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = plainAddress(socket.remoteAddress);
    if (address === undefined || limits.uncapped?.(address)) return;
    const key = limitKey(address);
    const count = open.get(key) ?? 0;
    if (count >= limits.maxConnectionsPerAddress) {
      socket.destroy();
      limits.onRefused?.(key);
      return;
    }
    open.set(key, count + 1);
    socket.once("close", () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
