/**
 * What the phone sends instead of a camera photo (docs/decisions/007-scale.md): the long side at
 * most PHOTO_LONG_SIDE pixels, a JPEG of about PHOTO_TARGET_BYTES. The browser (pwa/lib/shrink-photo.ts)
 * and the release benchmark (bench/release.ts) both shrink with these, so the bench measures what
 * phones upload. The server still decodes and re-encodes every upload.
 */
export const PHOTO_LONG_SIDE = 1600;

/** About 300 KB: ten times less than a 12-megapixel camera JPEG, and plenty for a 1200 px display copy. */
export const PHOTO_TARGET_BYTES = 300 * 1024;

/**
 * JPEG qualities (0–1, as canvas takes them) tried in turn until the result is within
 * PHOTO_TARGET_BYTES; a grainy photo ends at the last one whatever its size.
 */
export const PHOTO_QUALITIES = [0.85, 0.75, 0.65, 0.55] as const;

/** The size a photo of `width` × `height` is drawn at: the long side down to PHOTO_LONG_SIDE, never up. */
export function shrunkSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, PHOTO_LONG_SIDE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
