import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HEADERS_TIMEOUT_MS, MAX_CONNECTIONS_PER_ADDRESS, REQUEST_TIMEOUT_MS, serveApp } from "./listen.ts";

// Issue 46, item 16: 4,000 half-sent POSTs from one address stayed open (Node's 300 s default). The
// server now ends a body that takes longer than the request timeout, headers that take longer than
// the headers timeout, and refuses connections over a cap per client address. The timeouts are
// short here (injected) so the suite waits for the server's own verdicts, never for 20 s.

const SLOW = 500;
const CAP = 64;
const HEADERS_MS = 300;
const REQUEST_MS = 3_000;

// Every server and socket a test opens, closed after it whatever happened.
const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** An app that reads each POST's whole body before it answers, as the photo upload does. */
const fetch = async (request: Request) => {
  if (request.method === "POST") await request.arrayBuffer();
  return new Response("ok");
};

async function start(limits: Parameters<typeof serveApp>[0]["limits"]) {
  return new Promise<{ server: Server; port: number }>((resolve) => {
    const server = serveApp({ fetch, port: 0, hostname: "127.0.0.1", limits }, (info: AddressInfo) =>
      resolve({ server, port: info.port }),
    ) as Server;
    servers.push(server);
  });
}

type Watched = { socket: Socket; closed: Promise<number>; received: () => string };

/** A raw connection from `localAddress` (any of 127/8 is this machine) that sends `text` and waits. */
function open(port: number, text: string, localAddress = "127.0.0.1"): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress });
    sockets.push(socket);
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    // A refused socket may be reset rather than ended; either way it is closed.
    socket.on("error", () => {});
    const closed = new Promise<number>((done) => socket.once("close", () => done(Date.now())));
    socket.once("connect", () => {
      socket.write(text);
      resolve({ socket, closed, received: () => received });
    });
    socket.once("error", reject);
  });
}

/** Resolves with how many of `watched` closed before `ms` passed. */
async function closedWithin(watched: Watched[], ms: number): Promise<number> {
  let count = 0;
  const all = Promise.all(watched.map((w) => w.closed.then(() => count++)));
  await Promise.race([all, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
  return count;
}

/** A GET from `localAddress`, answered or not within `ms`. */
async function get(port: number, localAddress: string, ms = 5_000): Promise<string> {
  const client = await open(port, "GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n", localAddress);
  await Promise.race([client.closed, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
  return client.received();
}

const halfSentPost = `POST /upload HTTP/1.1\r\nHost: test\r\nContent-Type: image/jpeg\r\nContent-Length: 5000000\r\n\r\n${"x".repeat(1000)}`;

describe("slow requests", () => {
  it("are given 120 s for a request, 20 s for its headers and 64 connections per address by default", () => {
    expect(REQUEST_TIMEOUT_MS).toBe(120_000);
    expect(HEADERS_TIMEOUT_MS).toBe(20_000);
    expect(MAX_CONNECTIONS_PER_ADDRESS).toBe(CAP);
  });

  it("500 half-sent bodies from one address: those over the cap are closed at once, another address is served, and the rest end at the request timeout", async () => {
    const { port } = await start({
      maxConnectionsPerAddress: CAP,
      headersTimeoutMs: HEADERS_MS,
      requestTimeoutMs: REQUEST_MS,
      checkIntervalMs: 50,
    });
    const started = Date.now();
    const slow = await Promise.all(Array.from({ length: SLOW }, () => open(port, halfSentPost)));

    // Everything over the cap is closed by the server long before any timeout could have ended it.
    await expect.poll(() => slow.filter((w) => w.socket.closed).length, { timeout: 5_000 }).toBe(SLOW - CAP);
    const refusedAt = Math.max(...(await Promise.all(slow.filter((w) => w.socket.closed).map((w) => w.closed))));
    expect(refusedAt - started).toBeLessThan(REQUEST_MS);
    expect(slow.filter((w) => !w.socket.closed).every((w) => w.received() === "")).toBe(true);

    // Another client is served meanwhile; the capped address is not.
    expect(await get(port, "127.0.0.2")).toMatch(/^HTTP\/1\.1 200 /);
    expect(await get(port, "127.0.0.1", 1_000)).toBe("");

    // The 64 still open are ended by the request timeout (Node answers 408), not left for minutes.
    const open64 = slow.filter((w) => !w.socket.closed);
    expect(open64).toHaveLength(CAP);
    expect(await closedWithin(open64, REQUEST_MS + 3_000)).toBe(CAP);
    expect(open64.every((w) => /^HTTP\/1\.1 408 /.test(w.received()))).toBe(true);
    // Once they are gone, the address is served again.
    expect(await get(port, "127.0.0.1")).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("a connection that never finishes its headers is closed at the headers timeout", async () => {
    const { port } = await start({ headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS, checkIntervalMs: 50 });
    const started = Date.now();
    const dawdler = await open(port, "GET / HTTP/1.1\r\nHost: test\r\nX-Slow: ");
    expect(await closedWithin([dawdler], HEADERS_MS + 3_000)).toBe(1);
    const closedAt = await dawdler.closed;
    expect(closedAt - started).toBeGreaterThanOrEqual(HEADERS_MS - 50);
    // Well before the request timeout: it was the headers' own limit that ended it.
    expect(closedAt - started).toBeLessThan(REQUEST_MS);
  });

  it("a peer TRUST_PROXY trusts (the proxy in front) is not capped: it carries every client", async () => {
    const { port } = await start({
      maxConnectionsPerAddress: 2,
      headersTimeoutMs: HEADERS_MS,
      requestTimeoutMs: REQUEST_MS,
      checkIntervalMs: 50,
      uncapped: (address) => address === "127.0.0.3",
    });
    const viaProxy: Watched[] = [];
    for (let i = 0; i < 5; i++) viaProxy.push(await open(port, halfSentPost, "127.0.0.3"));
    const direct: Watched[] = [];
    for (let i = 0; i < 5; i++) direct.push(await open(port, halfSentPost, "127.0.0.4"));
    await expect.poll(() => direct.filter((w) => w.socket.closed).length, { timeout: 5_000 }).toBe(3);
    expect(viaProxy.filter((w) => w.socket.closed)).toHaveLength(0);
  });
});
