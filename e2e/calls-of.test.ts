import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { type APIRequestContext, request } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { callsOf } from "./harness.ts";

// Calls a test makes beside its page go through callsOf (e2e/harness.ts): Playwright's request client
// reuses an idle connection the server may be closing at that moment (its 5 s keep-alive timeout), and
// the call then fails with ECONNRESET before the server read it. A CI run failed so on
// one-group-night.test.ts ("apiRequestContext.post: socket hang up", POST /api/run-rounds). Here a
// server closes its first connection as the next call arrives on it, as Node's server does when that
// call comes just as the connection's idle time runs out; no browser is needed.

/** A server that answers the first call on each connection, and closes its first connection unanswered at the second. */
async function closingAtSecondCall() {
  const connections: { calls: string[] }[] = [];
  const server: Server = createServer((socket: Socket) => {
    const connection = { calls: [] as string[] };
    connections.push(connection);
    const first = connections.length === 1;
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      const line = chunk.toString("latin1").split("\r\n")[0] ?? "";
      if (!/ HTTP\/1\.1$/.test(line)) return; // a body's own chunk
      connection.calls.push(line);
      if (first && connection.calls.length > 1) {
        socket.destroy();
        return;
      }
      const keep = first ? "keep-alive" : "close";
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: ${keep}\r\n\r\nok`);
      if (!first) socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, connections, close: () => server.close() };
}

const open: { close: () => unknown }[] = [];
async function clientOf(url: string): Promise<APIRequestContext> {
  const client = await request.newContext({ baseURL: url });
  open.push({ close: () => client.dispose() });
  return client;
}
afterEach(async () => {
  for (const one of open.splice(0).reverse()) await one.close();
});

describe("callsOf", () => {
  it("a call Playwright sends on a connection the server is closing fails without it", async () => {
    const server = await closingAtSecondCall();
    open.push(server);
    const client = await clientOf(server.url);
    expect((await client.get("/api/events")).status()).toBe(200);
    await expect(client.post("/api/run-rounds", { data: { action: "next" } })).rejects.toThrow(
      /ECONNRESET|socket hang up/,
    );
  });

  it("sends such a call again on a new connection, and it is answered", async () => {
    const server = await closingAtSecondCall();
    open.push(server);
    const calls = callsOf(await clientOf(server.url));
    expect((await calls.get("/api/events")).status()).toBe(200);
    expect((await calls.post("/api/run-rounds", { action: "next" })).status()).toBe(200);
    expect(server.connections.map((connection) => connection.calls)).toEqual([
      ["GET /api/events HTTP/1.1", "POST /api/run-rounds HTTP/1.1"],
      ["POST /api/run-rounds HTTP/1.1"],
    ]);
  });

  it("is how every browser suite calls the API beside its page", () => {
    const direct = readdirSync(import.meta.dirname)
      .filter((name) => name.endsWith(".test.ts"))
      .flatMap((name) =>
        readFileSync(join(import.meta.dirname, name), "utf8")
          .split("\n")
          .flatMap((line, index) =>
            /\.request\.(get|post|put|patch|delete|fetch)\(/.test(line) ? [`e2e/${name}:${index + 1}`] : [],
          ),
      );
    expect(direct).toEqual([]);
  });
});
