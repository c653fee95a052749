/**
 * The widths (px) an event picture is also served at, as WebP (`/api/images/{name}?w=400`): a card is
 * at most about 400 CSS px wide, so a phone picks 400 or 800 by its pixel density. The home page
 * fetches only that copy, once, and keeps it for offline (docs/decisions/007-scale.md); the stored
 * display copy (1200 px JPEG) is the organiser's to see.
 */
export const IMAGE_WIDTHS = [400, 800] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/**
 * The width a card's picture is fetched at, by the screen's pixel density alone, so the server's
 * preload (a media query per width, api/lib/static-files.ts) and the page choose the same copy: a
 * card is at most about 400 CSS px wide, which 400 covers at one pixel per CSS pixel and 800 above.
 */
export const cardPictureWidth = (devicePixelRatio: number): ImageWidth => (devicePixelRatio > 1 ? 800 : 400);

/** The media query under which `cardPictureWidth` chooses each width, for the preload links. */
export const CARD_PICTURE_MEDIA: Record<ImageWidth, string> = {
  400: "(max-resolution: 1dppx)",
  800: "(min-resolution: 1.01dppx)",
};

/** A card picture's address at its width: `/api/images/{name}?w=800`. */
export const cardPictureUrl = (url: string, width: ImageWidth) => `${url}?w=${width}`;
