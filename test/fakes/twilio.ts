import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedRequest = {
  method: string;
  path: string;
  /** `user:password` from the Basic authorization header, or null without one. */
  basicAuth: string | null;
  contentType: string | undefined;
  form: Record<string, string>;
};

/**
 * A stand-in for api.twilio.com and verify.twilio.com on loopback, so the real SDK can be driven in
 * tests without the internet. It behaves like Verify where it matters: a code per number, approved
 * once, then gone (404), and it records every request for assertions.
 */
export async function startFakeTwilio() {
  const requests: RecordedRequest[] = [];
  /** The code Verify "sent" to each number; the test reads it from here. */
  const codes = new Map<string, string>();
  let failNext: number | null = null;
  let failMessage = "Internal Server Error";

  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? "/", "http://fake");
    const auth = req.headers.authorization;
    const record: RecordedRequest = {
      method: req.method ?? "",
      path: url.pathname,
      basicAuth: auth?.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString() : null,
      contentType: req.headers["content-type"],
      form: Object.fromEntries(new URLSearchParams(body)),
    };
    requests.push(record);
    const reply = (status: number, json: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json));
    };
    if (failNext !== null) {
      const status = failNext;
      failNext = null;
      return reply(status, { code: 20500, message: failMessage, status });
    }
    const to = record.form.To ?? "";
    let match = /^\/v2\/Services\/([^/]+)\/Verifications$/.exec(url.pathname);
    if (req.method === "POST" && match) {
      const code = String(100000 + Math.floor(Math.random() * 900000));
      codes.set(to, code);
      return reply(201, {
        sid: `VE${randomBytes(16).toString("hex")}`,
        service_sid: match[1],
        to,
        channel: record.form.Channel,
        status: "pending",
        valid: false,
      });
    }
    match = /^\/v2\/Services\/([^/]+)\/VerificationCheck$/.exec(url.pathname);
    if (req.method === "POST" && match) {
      const expected = codes.get(to);
      if (!expected) return reply(404, { code: 20404, message: "The requested resource was not found", status: 404 });
      const approved = record.form.Code === expected;
      if (approved) codes.delete(to);
      return reply(200, {
        sid: `VE${randomBytes(16).toString("hex")}`,
        service_sid: match[1],
        to,
        status: approved ? "approved" : "pending",
        valid: approved,
      });
    }
    match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(url.pathname);
    if (req.method === "POST" && match) {
      return reply(201, {
        sid: `SM${randomBytes(16).toString("hex")}`,
        account_sid: match[1],
        to,
        from: record.form.From,
        body: record.form.Body,
        status: "queued",
      });
    }
    reply(404, { code: 20404, message: "no such fake endpoint", status: 404 });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    codes,
    /** The next request answers with this HTTP status, as an outage would, and `message` as Twilio's text. */
    failNextWith(status: number, message = "Internal Server Error") {
      failNext = status;
      failMessage = message;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeTwilio = Awaited<ReturnType<typeof startFakeTwilio>>;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString()));
    req.on("error", reject);
  });
}
