import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSharp } from "../lib/sharp.ts";

// Apple's and Google's own "Add to … Wallet" badges (issue 50: their artwork where a registry package
// ships it; docs/decisions/054-wallet-buttons.md). `@neostore/cinto` (MIT) ships both as SVGs; the PWA
// takes them through vite (vite.config.ts's `@wallet-badges` alias) and the ticket email as inline PNGs
// drawn from the same files when it is sent (mail clients do not show SVG).

export type WalletBadge = "apple" | "google";

/** Each badge's file in the package (Google's in Australian English), its content id and email size. */
export const WALLET_BADGES: Record<WalletBadge, { file: string; cid: string; width: number; height: number }> = {
  apple: { file: "apple/en.svg", cid: "wallet-apple", width: 126, height: 40 },
  google: { file: "google/en-AU.svg", cid: "wallet-google", width: 145, height: 40 },
};

/** The package's `dist/` folder (its exports name only its script, so found beside it). */
const artwork = () => dirname(fileURLToPath(import.meta.resolve("@neostore/cinto")));

const drawn = new Map<WalletBadge, Promise<Buffer>>();

/** A badge as a PNG at twice its email size, drawn (by sharp's libvips) from the SVG once per process. */
export function walletBadgePng(badge: WalletBadge): Promise<Buffer> {
  let png = drawn.get(badge);
  if (!png) {
    const { file, height } = WALLET_BADGES[badge];
    png = Promise.all([readFile(join(artwork(), file)), loadSharp()]).then(([svg, sharp]) =>
      sharp(svg, { density: 288 })
        .resize({ height: height * 2 })
        .png()
        .toBuffer(),
    );
    png.catch(() => drawn.delete(badge));
    drawn.set(badge, png);
  }
  return png;
}
