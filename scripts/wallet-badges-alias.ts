import { fileURLToPath } from "node:url";

/**
 * Apple's and Google's own wallet badges (docs/decisions/054-wallet-buttons.md): `@neostore/cinto`
 * ships them as SVGs but its exports name only its script, so `@wallet-badges/apple/en.svg` reaches
 * its `dist/` folder. The build (vite.config.ts) and the unit suites (vitest.config.ts) share it.
 */
export const walletBadgesAlias = {
  find: /^@wallet-badges\//,
  replacement: fileURLToPath(new URL("../node_modules/@neostore/cinto/dist/", import.meta.url)),
};
