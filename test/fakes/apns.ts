import { execFileSync } from "node:child_process";
import { randomUUID, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import {
  createSecureServer,
  type Http2SecureServer,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from "node:http2";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";

/**
 * A local stand-in for APNs (issue 50): an HTTP/2 server over TLS whose certificate comes from its
 * own throwaway CA, which only the tests' APNs client trusts (its `ca`, or NODE_EXTRA_CA_CERTS for a
 * server process). It asks for a client certificate and checks it was signed by `clientCa` (the
 * wallet keys' stand-in WWDR CA), as Apple checks the Pass Type ID certificate: a push without one
 * is answered 403 BadCertificate. It records each push.
 */
export type ApnsPush = {
  token: string;
  headers: Record<string, string>;
  body: string;
  /** The client certificate's subject, as the TLS handshake gave it. */
  clientSubject: Record<string, string>;
  /** Whether that certificate was signed by the client CA. */
  clientVerified: boolean;
  /** When the fake answered it, and with what status (a held push has neither until it does, or never). */
  answered: number | null;
  status: number | null;
};

export type FakeApns = {
  url: string;
  /** The fake's CA (PEM), for the client's `ca` option. */
  ca: string;
  caPath: string;
  pushes: ApnsPush[];
  /** Pushes answered 200: what the devices received. */
  delivered(): ApnsPush[];
  /** Tokens answered 410 Unregistered (the device removed the pass). */
  unregistered: Set<string>;
  /** While true, pushes are recorded and left unanswered (APNs slow, or the server killed mid-send). */
  hold: boolean;
  /** Waits until `count` pushes have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

const openssl = (dir: string, args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });

/** A CA and a certificate for 127.0.0.1 it signs. */
function serverCertificate(dir: string) {
  openssl(dir, [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "apns-ca.key",
    "-out",
    "apns-ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=Test APNs CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign",
  ]);
  openssl(dir, [
    "req",
    "-new",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "apns.key",
    "-out",
    "apns.csr",
    "-subj",
    "/CN=127.0.0.1",
  ]);
  writeFileSync(join(dir, "apns.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  openssl(dir, [
    "x509",
    "-req",
    "-in",
    "apns.csr",
    "-CA",
    "apns-ca.pem",
    "-CAkey",
    "apns-ca.key",
    "-set_serial",
    "0x1234",
    "-days",
    "2",
    "-extfile",
    "apns.ext",
    "-out",
    "apns.pem",
  ]);
  return {
    ca: readFileSync(join(dir, "apns-ca.pem"), "utf8"),
    cert: readFileSync(join(dir, "apns.pem"), "utf8"),
    key: readFileSync(join(dir, "apns.key"), "utf8"),
  };
}

export async function startFakeApns(options: { clientCa: string; port?: number }): Promise<FakeApns> {
  const dir = mkdtempSync(join(tmpdir(), "sdt-apns-"));
  const tls = serverCertificate(dir);
  const pushes: ApnsPush[] = [];
  const held: { stream: ServerHttp2Stream; push: ApnsPush }[] = [];
  const waiters: (() => void)[] = [];
  const server: Http2SecureServer = createSecureServer({
    cert: tls.cert,
    key: tls.key,
    // The test Pass Type ID certificate is for signing (its key usage names no TLS client), so
    // OpenSSL's own check would refuse it for a purpose Apple's real certificates carry: the chain is
    // checked below instead, as "signed by the client CA".
    requestCert: true,
    rejectUnauthorized: false,
  });
  const clientCa = new X509Certificate(options.clientCa);
  const sessions = new Set<ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  const fake: FakeApns = {
    url: "",
    ca: tls.ca,
    caPath: join(dir, "apns-ca.pem"),
    pushes,
    delivered: () => pushes.filter((p) => p.status === 200),
    unregistered: new Set(),
    hold: false,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (pushes.length < count) {
        if (Date.now() > deadline) throw new Error(`APNs got ${pushes.length} pushes, not ${count}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    async close() {
      for (const { stream } of held) stream.close();
      // The app's client keeps its connection open between pushes: closing waits for none.
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const answer = (stream: ServerHttp2Stream, push: ApnsPush) => {
    if (stream.closed || stream.destroyed) return;
    push.answered = Date.now();
    if (!push.clientVerified) {
      push.status = 403;
      stream.respond({ ":status": 403, "content-type": "application/json" });
      stream.end(JSON.stringify({ reason: "BadCertificate" }));
      return;
    }
    if (fake.unregistered.has(push.token)) {
      push.status = 410;
      stream.respond({ ":status": 410, "content-type": "application/json" });
      stream.end(JSON.stringify({ reason: "Unregistered", timestamp: Date.now() }));
      return;
    }
    push.status = 200;
    stream.respond({ ":status": 200, "apns-id": randomUUID() });
    stream.end();
  };
  server.on("stream", (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", () => {});
    stream.on("end", () => {
      const path = String(headers[":path"] ?? "");
      const socket = stream.session?.socket as TLSSocket | undefined;
      const peer = socket?.getPeerCertificate();
      const subject = peer?.subject ?? {};
      let clientVerified = false;
      try {
        const certificate = new X509Certificate(peer!.raw);
        clientVerified = certificate.checkIssued(clientCa) && certificate.verify(clientCa.publicKey);
      } catch {}
      const push: ApnsPush = {
        token: decodeURIComponent(path.replace(/^\/3\/device\//, "")),
        headers: Object.fromEntries(
          Object.entries(headers)
            .filter(([name]) => !name.startsWith(":") || name === ":method" || name === ":path")
            .map(([name, value]) => [name, String(value)]),
        ),
        body: Buffer.concat(chunks).toString("utf8"),
        clientSubject: Object.fromEntries(Object.entries(subject).map(([k, v]) => [k, String(v)])),
        clientVerified,
        answered: null,
        status: null,
      };
      pushes.push(push);
      for (const wake of waiters.splice(0)) wake();
      // A push held was not received by the device: the killed server never learnt its fate.
      if (fake.hold) held.push({ stream, push });
      else answer(stream, push);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  fake.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
