import { BlockList, isIP } from "node:net";

/**
 * TRUST_PROXY, parsed: which peers may tell us who the client is (docs/decisions/006-operations.md).
 * `off` (the default) trusts nobody: the socket peer is the client, whatever the headers say.
 */
export type TrustProxy =
  | { mode: "off" }
  /** The N nearest hops are proxies, whoever they are: the client is the Nth address from the right. */
  | { mode: "hops"; hops: number }
  /** Peers inside these ranges are proxies; the client is the rightmost address outside them. */
  | { mode: "ranges"; ranges: string[] };

// Express's names, so a setting copied from an Express app means the same here.
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

export class TrustProxyError extends Error {}

/** Reads the variable; throws a TrustProxyError whose message completes "TRUST_PROXY: …". */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? "").trim();
  if (value === "" || value === "false" || value === "0") return { mode: "off" };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32) throw new TrustProxyError("a hop count must be between 1 and 32");
    return { mode: "hops", hops };
  }
  const ranges: string[] = [];
  for (const item of value.split(",").map((s) => s.trim().toLowerCase())) {
    if (item === "") continue;
    const named = NAMED_RANGES[item];
    if (named) {
      ranges.push(...named);
      continue;
    }
    // Validated here, once, so a typo stops start-up instead of silently trusting nobody.
    subnetOf(item);
    ranges.push(item);
  }
  if (ranges.length === 0) throw new TrustProxyError("must be loopback, addresses or CIDR ranges, or a hop count");
  return { mode: "ranges", ranges };
}

function subnetOf(entry: string): { network: string; prefix: number; family: "ipv4" | "ipv6" } {
  const [network = "", prefixText, ...rest] = entry.split("/");
  const version = isIP(network);
  if (version === 0 || rest.length > 0) {
    throw new TrustProxyError(`"${entry}" is not an address, a CIDR range or one of ${Object.keys(NAMED_RANGES)}`);
  }
  const bits = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!/^\d+$/.test(prefixText ?? String(bits)) || prefix > bits) {
    throw new TrustProxyError(`"${entry}" has a prefix length outside 0-${bits}`);
  }
  return { network, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

/**
 * An address as written by a socket or a proxy, reduced to the plain IP: IPv4-mapped IPv6
 * (`::ffff:203.0.113.7`) to IPv4, and the ports and brackets some proxies add (`[2001:db8::1]:443`,
 * `203.0.113.7:5555`) removed. Anything that is not an IP afterwards gives undefined.
 */
export function plainAddress(raw: string | undefined): string | undefined {
  let value = (raw ?? "").trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed?.[1]) value = bracketed[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(value);
  if (mapped?.[1]) value = mapped[1];
  const version = isIP(value);
  if (version === 0) return undefined;
  return version === 6 ? value.toLowerCase() : value;
}

export type ForwardedRequest = {
  /** The socket peer's address. */
  peer: string | undefined;
  forwardedFor: string | undefined;
  forwardedProto: string | undefined;
};

export type ProxyTrust = {
  /** The address every rate limit is keyed on. */
  clientAddress(request: ForwardedRequest): string;
  /** `https` or `http`: the proxy's word for it when the peer is trusted, otherwise undefined. */
  forwardedScheme(request: ForwardedRequest): "http" | "https" | undefined;
  /** Whether this socket peer is a proxy we believe (it carries many clients: listen.ts does not cap it). */
  trustsPeer(peer: string): boolean;
};

/** Turns the setting into the one function that decides who the client is. */
export function proxyTrust(setting: TrustProxy): ProxyTrust {
  const blocks = new BlockList();
  if (setting.mode === "ranges") {
    for (const range of setting.ranges) {
      const { network, prefix, family } = subnetOf(range);
      blocks.addSubnet(network, prefix, family);
    }
  }
  const isTrusted = (address: string) =>
    setting.mode === "hops" ||
    (setting.mode === "ranges" && blocks.check(address, isIP(address) === 4 ? "ipv4" : "ipv6"));

  const clientAddress = ({ peer, forwardedFor }: ForwardedRequest): string => {
    const socketPeer = plainAddress(peer);
    if (!socketPeer) return peer ?? "unknown";
    if (setting.mode === "off" || !isTrusted(socketPeer)) return socketPeer;
    // Nearest first: the peer, then X-Forwarded-For read from the right. Every proxy appends the
    // address it heard from, so only entries written by trusted hops can be believed.
    const chain = [
      socketPeer,
      ...(forwardedFor ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
        .reverse(),
    ];
    let client = socketPeer;
    for (let i = 1; i < chain.length; i++) {
      const address = plainAddress(chain[i]);
      // Garbage in the header ends the walk: the last address a trusted hop vouched for stands.
      if (!address) break;
      client = address;
      if (setting.mode === "hops" ? i >= setting.hops : !isTrusted(address)) break;
    }
    return client;
  };

  return {
    clientAddress,
    trustsPeer(peer) {
      const address = plainAddress(peer);
      return setting.mode !== "off" && address !== undefined && isTrusted(address);
    },
    forwardedScheme({ peer, forwardedProto }) {
      const socketPeer = plainAddress(peer);
      if (setting.mode === "off" || !socketPeer || !isTrusted(socketPeer)) return undefined;
      // The proxy that faces the internet writes it first; later hops may append their own.
      const scheme = forwardedProto?.split(",")[0]?.trim().toLowerCase();
      return scheme === "https" || scheme === "http" ? scheme : undefined;
    },
  };
}
