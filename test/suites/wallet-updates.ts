import { readFileSync } from "node:fs";
import { createWalletPush } from "../../api/deps.ts";
import { suiteFake, suiteTestServer } from "../api-harness.ts";
import { type FakeApns, startFakeApns } from "../fakes/apns.ts";
import { type FakeGoogleWallet, startFakeGoogleWallet } from "../fakes/google-wallet.ts";
import { makeWalletKeys, type WalletKeys } from "../fakes/wallet-keys.ts";

/** What the wallet update suites run against: the test keys, and Apple's and Google's stand-ins. */
export type WalletWorld = { keys: WalletKeys; apns: FakeApns; google: FakeGoogleWallet; close(): Promise<void> };

/** The fakes for the enclosing describe block: Google's first (its token URI goes into the key file), then APNs (it trusts the keys' CA). */
export async function startWalletWorld(): Promise<WalletWorld> {
  const google = await startFakeGoogleWallet();
  const keys = makeWalletKeys({ googleTokenUri: google.tokenUri });
  google.trust({ publicKey: keys.googlePublicKey, clientEmail: keys.googleClientEmail });
  const apns = await startFakeApns({ clientCa: readFileSync(keys.caCertPath, "utf8") });
  return {
    keys,
    apns,
    google,
    async close() {
      await apns.close();
      await google.close();
    },
  };
}

/** The environment that points both wallets at the world's fakes. */
export const walletEnv = (world: WalletWorld) => ({
  ...world.keys.env,
  APNS_BASE_URL: world.apns.url,
  GOOGLE_WALLET_API_BASE: world.google.apiBase,
});

/**
 * A suite's server with both wallets on, pushing to the local APNs (whose CA only this client
 * trusts) and PATCHing the local Google, and the world it runs against.
 */
export function walletUpdatesSuite(env: Record<string, string> = {}) {
  const world = suiteFake(startWalletWorld);
  const server = suiteTestServer(() => ({
    env: { ...walletEnv(world), ...env },
    deps: (base) => ({ walletPush: createWalletPush(base.env, base.wallet, base.now, { apnsCa: world.apns.ca }) }),
  }));
  return { world, server };
}
