import type { FirstPaintPages } from "../common/first-paint.ts";

/** The file the server reads: FIRST_PAINT_FILE in common/first-paint.ts. */
export const FIRST_PAINT_FILE: string;
/** Draws each page's first screen; `manifest` is the client build's Vite manifest (its default: dist's). */
export function drawFirstPaint(manifest?: string): Promise<FirstPaintPages>;
