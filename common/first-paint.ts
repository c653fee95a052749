/**
 * What the build draws into `dist/first-paint.json` (scripts/first-paint.mjs, pwa/app/first-paint.tsx)
 * and the server writes into each page's HTML (api/lib/static-files.ts): per address, the tags its
 * head gains (the styles of a drawn page, the pictures React asks to preload), the markup inside
 * `<div id="root">`, and whether the entry hydrates it (`data-hydrate`) or draws over it.
 */
export type FirstPaintPages = Record<string, { head: string[]; root: string; hydrate: boolean }>;

export const FIRST_PAINT_FILE = "first-paint.json";
