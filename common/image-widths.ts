/**
 * The widths (px) an event picture is also served at, as WebP (`/api/images/{name}?w=400`): a card is
 * at most about 400 CSS px wide, so a phone picks 400 or 800 by its pixel density. The stored display
 * copy (1200 px JPEG) stays the fallback for a browser without WebP.
 */
export const IMAGE_WIDTHS = [400, 800] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
