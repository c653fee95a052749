import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Throwaway signing material for the wallet suites (issue 50), made with Debian's openssl: a CA that
 * stands in for Apple's WWDR intermediate, a Pass Type ID certificate it signs (its key under a
 * passphrase, as Apple's export gives it), and a Google service-account JSON key with its own RSA
 * pair. Nothing here is Apple's or Google's; the suites check passes against this CA and this key.
 */
export type WalletKeys = {
  dir: string;
  /** The environment that turns both wallets on, as process.env would give it. */
  env: Record<string, string>;
  /** The CA's certificate (PEM path): `openssl smime -verify -CAfile` checks a pass's signature with it. */
  caCertPath: string;
  passTypeId: string;
  teamId: string;
  /** The Google service account's public key (PEM), to verify a save link's JWT. */
  googlePublicKey: string;
  googleClientEmail: string;
  issuerId: string;
};

export type WalletKeyOptions = {
  /** Days the pass certificate is valid from now (default 365); a small number tests the warning. */
  certificateDays?: number;
  /** Where Google's OAuth token endpoint is (the service account's `token_uri`): a local stand-in. */
  googleTokenUri?: string;
};

const openssl = (dir: string, args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });

export function makeWalletKeys(options: WalletKeyOptions = {}): WalletKeys {
  const dir = mkdtempSync(join(tmpdir(), "sdt-wallet-"));
  const passTypeId = "pass.au.example.speeddating";
  const teamId = "TEAM123456";
  const passphrase = "test pass key passphrase";
  openssl(dir, [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "3650",
    "-subj",
    "/CN=Test Worldwide Developer Relations CA/O=Test CA/C=AU",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  openssl(dir, [
    "req",
    "-new",
    "-newkey",
    "rsa:2048",
    "-keyout",
    "pass.key",
    "-passout",
    `pass:${passphrase}`,
    "-out",
    "pass.csr",
    "-subj",
    `/UID=${passTypeId}/CN=Pass Type ID: ${passTypeId}/OU=${teamId}/O=Test Organiser/C=AU`,
  ]);
  writeFileSync(
    join(dir, "pass.ext"),
    "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=emailProtection\n",
  );
  openssl(dir, [
    "x509",
    "-req",
    "-in",
    "pass.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-set_serial",
    "0x5a17",
    "-days",
    String(options.certificateDays ?? 365),
    "-extfile",
    "pass.ext",
    "-out",
    "pass.pem",
  ]);

  const issuerId = "3388000000012345678";
  const googleClientEmail = "wallet@test-project.iam.gserviceaccount.com";
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const googleKeyPath = join(dir, "google-service-account.json");
  writeFileSync(
    googleKeyPath,
    JSON.stringify({
      type: "service_account",
      project_id: "test-project",
      private_key_id: "test-key-1",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }),
      client_email: googleClientEmail,
      token_uri: options.googleTokenUri ?? "https://oauth2.googleapis.com/token",
    }),
  );
  return {
    dir,
    caCertPath: join(dir, "ca.pem"),
    passTypeId,
    teamId,
    googlePublicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
    googleClientEmail,
    issuerId,
    env: {
      APPLE_PASS_TYPE_ID: passTypeId,
      APPLE_TEAM_ID: teamId,
      APPLE_PASS_CERT: join(dir, "pass.pem"),
      APPLE_PASS_KEY: join(dir, "pass.key"),
      APPLE_PASS_KEY_PASSPHRASE: passphrase,
      APPLE_WWDR_CERT: join(dir, "ca.pem"),
      GOOGLE_WALLET_ISSUER_ID: issuerId,
      GOOGLE_WALLET_KEY: googleKeyPath,
    },
  };
}
