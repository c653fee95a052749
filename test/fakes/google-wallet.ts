import { createVerify, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for Google (issue 50): the OAuth token endpoint, which takes the JWT-bearer grant
 * only with an assertion signed by the service account's key (checked with its public half), and
 * Google Wallet's REST API, which records each PATCH made with a token it gave.
 */
export type GooglePatch = { resource: string; id: string; body: Record<string, unknown>; raw: string };

export type FakeGoogleWallet = {
  /** The token endpoint: the service account's `token_uri` (makeWalletKeys' googleTokenUri). */
  tokenUri: string;
  /** GOOGLE_WALLET_API_BASE. */
  apiBase: string;
  patches: GooglePatch[];
  /** Tokens given: a second one means the first was not kept. */
  tokensGiven: number;
  /** Assertions refused (a bad signature, the wrong claims). */
  refused: string[];
  /** Ids Google has no copy of (nobody saved the pass): answered 404. */
  unknownIds: Set<string>;
  /** The service account whose assertions are taken (its key is made once the token URI is known). */
  trust(account: { publicKey: string; clientEmail: string }): void;
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

const read = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
};

const json = (value: unknown) => JSON.parse(Buffer.from(value as string, "base64url").toString("utf8"));

export async function startFakeGoogleWallet(): Promise<FakeGoogleWallet> {
  const options = { publicKey: "", clientEmail: "" };
  const tokens = new Set<string>();
  const server: Server = createServer(async (request, response) => {
    const body = await read(request);
    const url = new URL(request.url ?? "/", "http://localhost");
    const reply = (status: number, value: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(value));
    };
    if (request.method === "POST" && url.pathname === "/token") {
      const form = new URLSearchParams(body);
      const [header, claims, signature] = (form.get("assertion") ?? "").split(".");
      const signed =
        header !== undefined &&
        claims !== undefined &&
        signature !== undefined &&
        options.publicKey !== "" &&
        createVerify("RSA-SHA256")
          .update(`${header}.${claims}`)
          .verify(options.publicKey, Buffer.from(signature, "base64url"));
      const c = signed ? json(claims) : {};
      const now = Date.now() / 1000;
      const problem = !signed
        ? "bad signature"
        : form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer"
          ? "grant_type"
          : json(header).alg !== "RS256"
            ? "alg"
            : c.iss !== options.clientEmail
              ? "iss"
              : c.scope !== "https://www.googleapis.com/auth/wallet_object.issuer"
                ? "scope"
                : c.aud !== fake.tokenUri
                  ? "aud"
                  : !(c.iat <= now + 60 && c.exp > now && c.exp - c.iat <= 3600)
                    ? "times"
                    : null;
      if (problem) {
        fake.refused.push(problem);
        return reply(400, { error: "invalid_grant", error_description: problem });
      }
      const token = `ya29.${randomUUID()}`;
      tokens.add(token);
      fake.tokensGiven++;
      return reply(200, { access_token: token, expires_in: 3599, token_type: "Bearer" });
    }
    const match = /^\/walletobjects\/v1\/(eventTicketObject|eventTicketClass)\/([^/]+)$/.exec(url.pathname);
    if (request.method === "PATCH" && match) {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      if (!token || !tokens.has(token)) return reply(401, { error: { code: 401, message: "unauthenticated" } });
      const id = decodeURIComponent(match[2]!);
      if (fake.unknownIds.has(id)) return reply(404, { error: { code: 404, message: "not found" } });
      const patch = JSON.parse(body) as Record<string, unknown>;
      fake.patches.push({ resource: match[1]!, id, body: patch, raw: body });
      return reply(200, { id, ...patch });
    }
    reply(404, { error: { code: 404, message: "no such endpoint" } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: FakeGoogleWallet = {
    tokenUri: `${base}/token`,
    apiBase: `${base}/walletobjects/v1`,
    patches: [],
    tokensGiven: 0,
    refused: [],
    unknownIds: new Set(),
    trust(account) {
      Object.assign(options, account);
    },
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (fake.patches.length < count) {
        if (Date.now() > deadline) throw new Error(`Google got ${fake.patches.length} PATCHes, not ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
