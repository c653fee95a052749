import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { NotAnImage, NotFound } from "../lib/errors.ts";

export const MAX_IMAGE_BYTES = 5_242_880;
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp"]);
// A 5 MB file can still decode to a huge bitmap; refuse anything beyond a 50-megapixel camera.
const MAX_INPUT_PIXELS = 50_000_000;

/** Stored names are random; nothing else (no slashes, no dots beyond the extension) is ever served. */
export const STORED_NAME = /^[a-f0-9]{32}(?:-thumb)?\.jpg$/;

export type StoredImage = { imageName: string; thumbName: string };

/**
 * Decodes the bytes (which proves they are an image, whatever the file name says), re-encodes them
 * without metadata (EXIF and GPS gone), and writes a display copy and a small thumbnail under
 * random names.
 */
export async function storeImage(uploadsDir: string, bytes: Uint8Array): Promise<StoredImage> {
  let format: string | undefined;
  try {
    format = (await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    throw NotAnImage();
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw NotAnImage();

  const base = randomBytes(16).toString("hex");
  const imageName = `${base}.jpg`;
  const thumbName = `${base}-thumb.jpg`;
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
  await mkdir(uploadsDir, { recursive: true });
  await writeAtomically(join(uploadsDir, imageName), display);
  await writeAtomically(join(uploadsDir, thumbName), thumb);
  return { imageName, thumbName };
}

async function writeAtomically(path: string, data: Buffer) {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

/** Deletes a stored image and its thumbnail: for a request refused after its photo was stored. */
export async function removeStoredImage(uploadsDir: string, stored: StoredImage): Promise<void> {
  await Promise.all([stored.imageName, stored.thumbName].map((name) => rm(join(uploadsDir, name), { force: true })));
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
