import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { IMAGE_WIDTHS, type ImageWidth } from "../../common/image-widths.ts";
import { MAX_IMAGE_BYTES } from "../../common/images.ts";
import { NotAnImage, NotFound } from "../lib/errors.ts";
import { loadSharp } from "../lib/sharp.ts";

export { MAX_IMAGE_BYTES };

const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp"]);
// A 5 MB file can still decode to a huge bitmap; refuse anything beyond a 50-megapixel camera.
const MAX_INPUT_PIXELS = 50_000_000;

/** Stored names are random; nothing else (no slashes, no dots beyond the extension) is ever served. */
export const STORED_NAME = /^[a-f0-9]{32}(?:-thumb)?\.jpg$/;

/**
 * What a users row names once its photo is gone (a released hold's, swept; an attendee's, erased by
 * retention). It is not a stored name, so the image routes answer 404 for it and nothing deletes it.
 */
export const NO_PHOTO = "none.jpg";

/** Photos are personal data: the folder and every file in it are the server's account's alone. */
export const UPLOAD_DIR_MODE = 0o700;
export const UPLOAD_FILE_MODE = 0o600;

export type StoredImage = { imageName: string; thumbName: string };

/** The thumbnail stored beside a photo: `x.jpg` has `x-thumb.jpg` (the admin pages derive it so). */
export const thumbnailName = (imageName: string) => imageName.replace(/\.jpg$/, "-thumb.jpg");

/** Fresh random names for a stored photo and its thumbnail (what STORED_NAME accepts). */
export function newStoredImage(): StoredImage {
  const imageName = `${randomBytes(16).toString("hex")}.jpg`;
  return { imageName, thumbName: thumbnailName(imageName) };
}

/**
 * Reads only the image's header: a JPEG, PNG or WebP within the pixel limit, or a 415. A few
 * milliseconds, against the ~100 of storeImage; what passes it can still fail to decode (truncated or
 * corrupt data), which storeImage finds.
 */
export async function assertImageHeader(bytes: Uint8Array): Promise<void> {
  const sharp = await loadSharp();
  let meta: { format?: string; width?: number; height?: number };
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw NotAnImage();
  }
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format)) throw NotAnImage();
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) throw NotAnImage();
}

/**
 * Decodes the bytes (which proves they are an image, whatever the file name says), re-encodes them
 * without metadata (EXIF and GPS gone), and writes a display copy and a small thumbnail under
 * random names.
 */
export async function storeImage(uploadsDir: string, bytes: Uint8Array): Promise<StoredImage> {
  await assertImageHeader(bytes);

  const { imageName, thumbName } = newStoredImage();
  const sharp = await loadSharp();
  let display: Buffer;
  let thumb: Buffer;
  try {
    // rotate() applies the EXIF orientation before the metadata is dropped.
    const source = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    display = await source
      .clone()
      .resize({ width: 1200, height: 1200, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 80, mozjpeg: true })
      .toBuffer();
    thumb = await source
      .clone()
      .resize({ width: 320, height: 320, fit: "cover", position: "attention" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 72, mozjpeg: true })
      .toBuffer();
  } catch {
    // Truncated or corrupt data that passed the header check fails here.
    throw NotAnImage();
  }
  await prepareUploadsDir(uploadsDir);
  await writeAtomically(join(uploadsDir, imageName), display);
  await writeAtomically(join(uploadsDir, thumbName), thumb);
  return { imageName, thumbName };
}

// Folders already made owner-only by this process: checked once, not on every upload.
const preparedDirs = new Set<string>();

/**
 * Creates the uploads folder owner-only (0700), and narrows one that an older version or a restore
 * left wider, once per process.
 */
export async function prepareUploadsDir(uploadsDir: string): Promise<void> {
  await mkdir(uploadsDir, { recursive: true, mode: UPLOAD_DIR_MODE });
  if (preparedDirs.has(uploadsDir)) return;
  if (((await stat(uploadsDir)).mode & 0o077) !== 0) await chmod(uploadsDir, UPLOAD_DIR_MODE);
  preparedDirs.add(uploadsDir);
}

/** A file being written by writeAtomically; a crash can leave one behind for the upload sweep. */
export const PARTIAL_NAME = /^[a-f0-9]{32}(?:-thumb)?\.jpg\.\d+\.tmp$/;

async function writeAtomically(path: string, data: Buffer) {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, data, { mode: UPLOAD_FILE_MODE });
  await rename(tmp, path);
}

/**
 * Deletes stored files by name. Anything that is not a stored name (the NO_PHOTO placeholder, a
 * fixture's made-up name) is skipped, so no other path under the folder can ever be reached.
 */
export async function removeStoredFiles(uploadsDir: string, names: Iterable<string>): Promise<void> {
  const stored = [...new Set(names)].filter((name) => STORED_NAME.test(name));
  await Promise.all(stored.map((name) => rm(join(uploadsDir, name), { force: true })));
  for (const name of stored) dropImageVariants(uploadsDir, name);
}

/** Deletes a stored image and its thumbnail: for a request refused after its photo was stored. */
export async function removeStoredImage(uploadsDir: string, stored: StoredImage): Promise<void> {
  await removeStoredFiles(uploadsDir, [stored.imageName, stored.thumbName]);
}

export async function readStoredImage(uploadsDir: string, name: string): Promise<Buffer> {
  if (!STORED_NAME.test(name)) throw NotFound("no such image");
  const path = join(uploadsDir, name);
  try {
    if (!(await stat(path)).isFile()) throw NotFound("no such image");
    return await readFile(path);
  } catch {
    throw NotFound("no such image");
  }
}

async function isStoredFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

// Recently made WebP variants, by name and width: a handful of event pictures are asked for by every
// phone that opens the home page; anything else falls out.
const variants = new Map<string, Buffer>();
const MAX_VARIANTS = 200;
const variantKey = (uploadsDir: string, name: string, width: ImageWidth) => `${uploadsDir}\u0000${name}@${width}`;

/**
 * Forgets the WebP variants made from a stored image: whatever deletes the file (a replaced picture,
 * a details retry, the upload sweep, retention's erasure) calls this, so a deleted photo is not
 * served on from memory (docs/decisions/012-disk-and-personal-data.md).
 */
export function dropImageVariants(uploadsDir: string, name: string): void {
  for (const width of IMAGE_WIDTHS) variants.delete(variantKey(uploadsDir, name, width));
}

/**
 * A stored image at `width` px wide (never wider than stored), as WebP: the size an event card shows,
 * a fraction of the display JPEG's bytes (docs/decisions/007-scale.md). Made from the stored copy on
 * first request and kept in memory, so pictures stored before variants existed get them too, and
 * nothing new lies on disk for the sweep, the backup or retention to know about.
 */
export async function readImageVariant(uploadsDir: string, name: string, width: ImageWidth): Promise<Buffer> {
  const key = variantKey(uploadsDir, name, width);
  const cached = variants.get(key);
  if (cached) {
    // Never a variant of a missing original, whoever removed it (a restore, a hand on the disk).
    if (!(await isStoredFile(join(uploadsDir, name)))) {
      dropImageVariants(uploadsDir, name);
      throw NotFound("no such image");
    }
    variants.delete(key);
    variants.set(key, cached);
    return cached;
  }
  const stored = await readStoredImage(uploadsDir, name);
  const sharp = await loadSharp();
  const made = await sharp(stored).resize({ width, withoutEnlargement: true }).webp({ quality: 72 }).toBuffer();
  variants.set(key, made);
  if (variants.size > MAX_VARIANTS) variants.delete(variants.keys().next().value as string);
  return made;
}
