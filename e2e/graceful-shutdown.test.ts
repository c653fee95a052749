import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { type ClientRequest, type IncomingMessage, request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { bookings } from "../db/schema.ts";
import { insertEvent, makeImage } from "../test/fixtures.ts";
import { detailsForm, newMobile, verifiedBrowser } from "../test/suites/booking-flow.ts";
import { integrity } from "../test/suites/db-state.ts";
import { type AppServer, startAppServer, waitUntil } from "./harness.ts";

// SIGTERM, as a deploy or `docker stop` sends it, while a phone is still uploading its photo on venue
// Wi-Fi. The real server process (spawned as `npm run serve` runs it) must stop taking connections,
// finish that booking, checkpoint and close the database, and exit 0.

/** Resolves true once nothing accepts connections on the port any more. */
const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });

/**
 * A save-user-details upload sent in two halves: the headers and the first half now (resolved once
 * the server has read the headers and asked for the body), the rest whenever the test says.
 */
async function slowUpload(server: AppServer, eventId: number) {
  const phone = newMobile();
  const browser = await verifiedBrowser(server.url, phone);
  const photo = new Uint8Array(await makeImage("jpeg", 1600, 1200));
  const multipart = new Request("http://localhost/", {
    method: "POST",
    body: detailsForm({ phone, eventId, image: photo }),
  });
  const body = Buffer.from(await multipart.arrayBuffer());
  const { port } = new URL(server.url);
  let req: ClientRequest | undefined;
  const response = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/save-user-details",
        method: "POST",
        headers: {
          "content-type": multipart.headers.get("content-type") ?? "",
          "content-length": body.length,
          cookie: [...browser.jar].map(([k, v]) => `${k}=${v}`).join("; "),
          // The server's 100 Continue tells us it has the request in hand before the body is sent.
          expect: "100-continue",
        },
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on("error", reject);
  });
  await new Promise<void>((resolve) => req?.once("continue", () => resolve()));
  const half = Math.floor(body.length / 2);
  await new Promise<void>((resolve) => req?.write(body.subarray(0, half), () => resolve()));
  return {
    port: Number(port),
    response,
    finish: () => req?.end(body.subarray(half)),
  };
}

// Its own server, not the `server` fixture (e2e/fixtures.ts): the process's lifecycle is the subject,
// a new one per test on a kept data folder, sent SIGTERM mid-request.
describe("graceful shutdown", () => {
  let dataDir: string;
  let eventId: number;
  let server: AppServer | undefined;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "sdt-shutdown-"));
    const db = openDatabase(join(dataDir, "app.db"));
    eventId = (await insertEvent(db, join(dataDir, "uploads"), { name: "Last Orders", totalSeats: 5 })).id;
    db.$client.close();
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("finishes a slow upload in flight, then checkpoints, closes the database and exits 0", async () => {
    server = await startAppServer({ SEED_DEMO: "0", SHUTDOWN_GRACE_SECONDS: "60" }, dataDir);
    const upload = await slowUpload(server, eventId);

    server.signal("SIGTERM");
    // Stopped accepting: a new visitor is refused while the upload is still open.
    await waitUntil(() => refusesConnections(upload.port), "the server to stop accepting connections");
    upload.finish();

    const reply = await upload.response;
    expect(reply.status, reply.body).toBe(200);
    const { userID } = JSON.parse(reply.body) as { userID: number };
    expect(userID).toBeGreaterThan(0);
    // The socket is not kept alive for another request that would never be served.
    expect(reply.connection).toBe("close");

    expect(await server.exited).toEqual({ code: 0, signal: null });
    const shutdownLines = server.logs
      .join("")
      .split("\n")
      .filter((l) => l.includes("shut down on SIGTERM"));
    expect(shutdownLines).toHaveLength(1);
    expect(JSON.parse(shutdownLines[0]!)).toMatchObject({ requestsCut: 0 });

    // One complete file: the WAL was folded in and removed, and the booking is in it.
    expect(existsSync(join(dataDir, "app.db-wal"))).toBe(false);
    const db = openDatabase(join(dataDir, "app.db"));
    try {
      expect(integrity(db.$client)).toEqual({ integrity: ["ok"], foreignKeys: [] });
      const held = db.select().from(bookings).all();
      expect(held.map((b) => [b.userId, b.eventId, b.status])).toEqual([[userID, eventId, "held"]]);
    } finally {
      db.$client.close();
    }
  });

  it("does not wait past SHUTDOWN_GRACE_SECONDS for a client that stopped sending", async () => {
    server = await startAppServer({ SEED_DEMO: "0", SHUTDOWN_GRACE_SECONDS: "1" }, dataDir);
    const upload = await slowUpload(server, eventId);
    const outcome = upload.response.then(
      () => "answered",
      () => "cut off",
    );

    server.signal("SIGTERM");
    // The second half never comes: the grace period ends it and the process still exits cleanly.
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(await outcome).toBe("cut off");
    expect(server.logs.join("")).toMatch(/"shut down on SIGTERM".*"requestsCut":1/);
    expect(existsSync(join(dataDir, "app.db-wal"))).toBe(false);
    const db = openDatabase(join(dataDir, "app.db"));
    try {
      expect(integrity(db.$client)).toEqual({ integrity: ["ok"], foreignKeys: [] });
      expect(db.select().from(bookings).all()).toEqual([]);
    } finally {
      db.$client.close();
    }
  });
});
