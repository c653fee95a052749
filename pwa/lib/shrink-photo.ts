import { PHOTO_QUALITIES, PHOTO_TARGET_BYTES, shrunkSize } from "../../common/photo-size.ts";

/**
 * The photo as the phone uploads it: decoded with its EXIF orientation applied, the long side down to
 * 1600 px, re-encoded as a JPEG of about 300 KB (common/photo-size.ts). A 3 MB camera photo becomes a
 * tenth of the bytes to send and far less for the server to decode (docs/decisions/007-scale.md).
 * A photo already small goes up as chosen, and so does one the browser decodes but cannot draw.
 * A file the browser cannot decode is not an image (a text file renamed `.jpg`): null, so the form
 * refuses it when it is chosen (the form takes "an image file only"). Every browser the app supports decodes
 * JPEG, PNG and WebP, the only types the form takes.
 * The answer is kept per file: the form decodes a photo when it is chosen and uploads that same copy.
 */
export function shrinkPhoto(file: File): Promise<File | null> {
  let shrunk = prepared.get(file);
  if (!shrunk) {
    shrunk = shrink(file);
    prepared.set(file, shrunk);
  }
  return shrunk;
}

const prepared = new WeakMap<File, Promise<File | null>>();

async function shrink(file: File): Promise<File | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return null;
  }
  try {
    const size = shrunkSize(bitmap.width, bitmap.height);
    const alreadySmall = size.width === bitmap.width && file.size <= PHOTO_TARGET_BYTES && file.type === "image/jpeg";
    if (alreadySmall) return file;
    const blob = await encode(bitmap, size);
    if (!blob) return file;
    return new File([blob], `${file.name.replace(/\.[^.]*$/, "")}.jpg`, { type: "image/jpeg" });
  } catch {
    return file;
  } finally {
    bitmap.close();
  }
}

/** Draws the bitmap at `size` and encodes it at the first quality that fits the target. */
async function encode(bitmap: ImageBitmap, size: { width: number; height: number }): Promise<Blob | null> {
  const canvas = makeCanvas(size);
  const context = canvas.getContext("2d") as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!context) return null;
  // JPEG has no transparency: a PNG's see-through parts become white, as the server makes them.
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, size.width, size.height);
  context.imageSmoothingQuality = "high";
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  let blob: Blob | null = null;
  for (const quality of PHOTO_QUALITIES) {
    blob = await toJpeg(canvas, quality);
    if (!blob || blob.size <= PHOTO_TARGET_BYTES) break;
  }
  return blob;
}

function makeCanvas(size: { width: number; height: number }): OffscreenCanvas | HTMLCanvasElement {
  if (typeof OffscreenCanvas !== "undefined") return new OffscreenCanvas(size.width, size.height);
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  return canvas;
}

function toJpeg(canvas: OffscreenCanvas | HTMLCanvasElement, quality: number): Promise<Blob | null> {
  if ("convertToBlob" in canvas) return canvas.convertToBlob({ type: "image/jpeg", quality });
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
}
