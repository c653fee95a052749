/**
 * The widths (px) an event picture is also served at, as WebP (`/api/images/{name}?w=400`): a card is
 * at most about 400 CSS px wide, so a phone picks 400 or 800 by its pixel density. The stored display
 * copy (1200 px JPEG) stays the fallback for a browser without WebP.
 */
export const IMAGE_WIDTHS = [400, 800] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** The `srcset` of a stored picture's WebP widths, `url` being its address (`/api/images/{name}`). */
export const pictureSrcSet = (url: string) => IMAGE_WIDTHS.map((w) => `${url}?w=${w} ${w}w`).join(", ");

/** How wide an event card's picture is shown: one grid column, by the breakpoints in pwa/styles.css. */
export const CARD_SIZES = "(min-width: 1000px) 360px, (min-width: 640px) 50vw, 100vw";
