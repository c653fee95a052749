import { createPrivateKey, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Env } from "../env.ts";

/**
 * The organiser's wallet keys, read once when the app starts (issue 50). Apple's: the Pass Type ID
 * certificate, its key and Apple's WWDR intermediate, which sign every .pkpass and open the HTTP/2
 * connection to APNs. Google's: the service account that signs save links and calls the Wallet REST
 * API. Either is null when its settings are absent: then no button shows and no route answers for it.
 */
export type AppleWalletKeys = {
  passTypeId: string;
  teamId: string;
  /** PEM text, as passkit-generator and node:http2 take them. */
  signerCert: string;
  signerKey: string;
  signerKeyPassphrase?: string;
  wwdr: string;
  /** When the pass certificate stops working (epoch ms): the desk warns 30 days ahead. */
  certificateExpiresAt: number;
};

export type GoogleWalletKeys = {
  issuerId: string;
  clientEmail: string;
  /** PKCS#8 PEM of the service account's RSA key: signs save links (RS256) and token requests. */
  privateKey: string;
  privateKeyId?: string;
  /** Where an access token for the REST API is asked for (the key file's `token_uri`). */
  tokenUri: string;
};

export type WalletKeys = { apple: AppleWalletKeys | null; google: GoogleWalletKeys | null };

export class WalletKeyError extends Error {}

const read = (name: string, path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new WalletKeyError(`${name}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
};

function appleKeys(env: Env): AppleWalletKeys | null {
  const { APPLE_PASS_TYPE_ID, APPLE_TEAM_ID, APPLE_PASS_CERT, APPLE_PASS_KEY, APPLE_WWDR_CERT } = env;
  if (!APPLE_PASS_TYPE_ID || !APPLE_TEAM_ID || !APPLE_PASS_CERT || !APPLE_PASS_KEY || !APPLE_WWDR_CERT) return null;
  const signerCert = read("APPLE_PASS_CERT", APPLE_PASS_CERT);
  const signerKey = read("APPLE_PASS_KEY", APPLE_PASS_KEY);
  const wwdr = read("APPLE_WWDR_CERT", APPLE_WWDR_CERT);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(signerCert);
    new X509Certificate(wwdr);
  } catch {
    throw new WalletKeyError("APPLE_PASS_CERT and APPLE_WWDR_CERT must be PEM certificates");
  }
  try {
    createPrivateKey({ key: signerKey, passphrase: env.APPLE_PASS_KEY_PASSPHRASE });
  } catch {
    throw new WalletKeyError("APPLE_PASS_KEY: not a PEM private key, or APPLE_PASS_KEY_PASSPHRASE does not open it");
  }
  return {
    passTypeId: APPLE_PASS_TYPE_ID,
    teamId: APPLE_TEAM_ID,
    signerCert,
    signerKey,
    ...(env.APPLE_PASS_KEY_PASSPHRASE ? { signerKeyPassphrase: env.APPLE_PASS_KEY_PASSPHRASE } : {}),
    wwdr,
    certificateExpiresAt: Date.parse(certificate.validTo),
  };
}

function googleKeys(env: Env): GoogleWalletKeys | null {
  if (!env.GOOGLE_WALLET_ISSUER_ID || !env.GOOGLE_WALLET_KEY) return null;
  let file: { client_email?: unknown; private_key?: unknown; private_key_id?: unknown; token_uri?: unknown };
  try {
    file = JSON.parse(read("GOOGLE_WALLET_KEY", env.GOOGLE_WALLET_KEY));
  } catch (error) {
    if (error instanceof WalletKeyError) throw error;
    throw new WalletKeyError("GOOGLE_WALLET_KEY: not a service account's JSON key file");
  }
  if (typeof file.client_email !== "string" || typeof file.private_key !== "string")
    throw new WalletKeyError("GOOGLE_WALLET_KEY: the key file has no client_email or private_key");
  try {
    createPrivateKey(file.private_key);
  } catch {
    throw new WalletKeyError("GOOGLE_WALLET_KEY: its private_key is not a PEM private key");
  }
  return {
    issuerId: env.GOOGLE_WALLET_ISSUER_ID,
    clientEmail: file.client_email,
    privateKey: file.private_key,
    ...(typeof file.private_key_id === "string" ? { privateKeyId: file.private_key_id } : {}),
    tokenUri: typeof file.token_uri === "string" ? file.token_uri : "https://oauth2.googleapis.com/token",
  };
}

/** Reads the keys the environment names; a missing or unreadable file is a WalletKeyError naming its setting. */
export function loadWalletKeys(env: Env): WalletKeys {
  return { apple: appleKeys(env), google: googleKeys(env) };
}
