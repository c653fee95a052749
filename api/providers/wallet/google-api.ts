import { createSign } from "node:crypto";
import { type GoogleWalletResource, WalletPushError } from "./types.ts";

/** The service account that calls Google Wallet's REST API, and where the API and its token endpoint are. */
export type GoogleApiOptions = {
  /** GOOGLE_WALLET_API_BASE: `https://walletobjects.googleapis.com/walletobjects/v1`, or a local stand-in. */
  apiBase: string;
  clientEmail: string;
  /** PEM of the service account's RSA key: signs the token request (RS256). */
  privateKey: string;
  privateKeyId?: string;
  /** The key file's `token_uri`. */
  tokenUri: string;
  now: () => number;
  timeoutMs?: number;
};

const SCOPE = "https://www.googleapis.com/auth/wallet_object.issuer";
// A token is asked for again this long before Google says it expires, so none is used as it lapses.
const EXPIRY_MARGIN_MS = 60_000;

const base64url = (data: string | Buffer) => Buffer.from(data).toString("base64url");

/**
 * Google Wallet's REST API with the organiser's service account: an OAuth 2.0 access token from the
 * JWT-bearer grant (RFC 7523; the assertion signed RS256 with node:crypto), kept until it expires,
 * and PATCH calls on the ticket's object or its event's class.
 */
export function createGoogleWalletApi(options: GoogleApiOptions) {
  let token: { value: string; expiresAt: number } | undefined;

  async function call(url: string, init: RequestInit, what: string): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs ?? 15_000) });
    } catch (error) {
      throw new WalletPushError(`${what}: not reached (${String(error)})`, false);
    }
  }

  async function accessToken(): Promise<string> {
    const now = options.now();
    if (token && token.expiresAt - EXPIRY_MARGIN_MS > now) return token.value;
    const iat = Math.floor(now / 1000);
    const header = { alg: "RS256", typ: "JWT", ...(options.privateKeyId ? { kid: options.privateKeyId } : {}) };
    const claims = { iss: options.clientEmail, scope: SCOPE, aud: options.tokenUri, iat, exp: iat + 3600 };
    const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
    const signature = createSign("RSA-SHA256").update(unsigned).sign(options.privateKey);
    const response = await call(
      options.tokenUri,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
          assertion: `${unsigned}.${base64url(signature)}`,
        }),
      },
      "Google's token endpoint",
    );
    const body = (await response.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown };
    // A refused grant (a revoked key) is not this update's fault: retried, and the log says why.
    if (!response.ok || typeof body.access_token !== "string")
      throw new WalletPushError(`Google's token endpoint answered ${response.status}`, false);
    const lifetime = typeof body.expires_in === "number" ? body.expires_in * 1000 : 3_600_000;
    token = { value: body.access_token, expiresAt: now + lifetime };
    return token.value;
  }

  /** PATCHes one object or class; 404 (nobody saved it, so Google has none) is a permanent failure. */
  async function patch(resource: GoogleWalletResource, id: string, fields: Record<string, unknown>) {
    const url = `${options.apiBase.replace(/\/$/, "")}/${resource}/${encodeURIComponent(id)}`;
    const send = async () =>
      call(
        url,
        {
          method: "PATCH",
          headers: { authorization: `Bearer ${await accessToken()}`, "content-type": "application/json" },
          body: JSON.stringify(fields),
        },
        "Google Wallet's API",
      );
    let response = await send();
    // A token Google stopped taking before its time: asked for once more.
    if (response.status === 401) {
      token = undefined;
      response = await send();
    }
    await response.arrayBuffer().catch(() => undefined);
    if (response.ok) return { id };
    const permanent = response.status === 404 || response.status === 400;
    throw new WalletPushError(`Google Wallet answered ${response.status} for ${resource}`, permanent);
  }

  return { patch };
}
