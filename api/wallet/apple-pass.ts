import type { Env } from "../env.ts";
import type { AppleWalletKeys } from "./keys.ts";
import type { PassFacts } from "./pass-facts.ts";

/** What making an Apple pass needs: the settings (its web service's address, the auth token's secret) and the keys. */
export type ApplePassDeps = {
  env: Pick<Env, "PUBLIC_BASE_URL" | "BUSINESS_NAME" | "SESSION_SECRET">;
  wallet: { apple: AppleWalletKeys | null };
};

/** The booking's signed .pkpass (a zip of pass.json, its images, manifest.json and signature). */
export async function applePassBuffer(deps: ApplePassDeps, facts: PassFacts): Promise<Buffer> {
  void deps;
  void facts;
  throw new Error("applePassBuffer: not built yet");
}
