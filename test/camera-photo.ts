import sharp from "sharp";

/**
 * A 12-megapixel "camera photo": a face-sized blob, background shapes and sensor grain, so it has
 * the detail and compresses like a real portrait (about 3.4 MB as a JPEG). `orientation` writes that
 * EXIF orientation, as a phone held upright does (6: the pixels are stored turned a quarter left).
 */
export async function cameraPhoto(
  seed: number,
  { width = 4032, height = 3024, orientation }: { width?: number; height?: number; orientation?: number } = {},
): Promise<Buffer> {
  const shapes = Array.from({ length: 40 }, (_, i) => {
    const x = (i * 977 + seed * 131) % width;
    const y = (i * 613 + seed * 71) % height;
    const r = 80 + ((i * 37 + seed * 13) % 420);
    const hue = (i * 29 + seed * 47) % 360;
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(${hue},55%,${35 + (i % 5) * 10}%)" opacity="0.7"/>`;
  }).join("");
  // Drawn at half the size and scaled up: librsvg took 11 s of CPU for these shapes at 12 megapixels
  // and 0.3 s at 3 (two photos were most of a browser suite's minute on CI's two cores). The grain,
  // added at full size below, is what gives the photo its detail and its size.
  const drawn = { width: Math.round(width / 2), height: Math.round(height / 2) };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${drawn.width}" height="${drawn.height}" viewBox="0 0 ${width} ${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${seed * 30},40%,70%)"/><stop offset="1" stop-color="hsl(${seed * 30 + 120},40%,30%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes}
    <ellipse cx="${width / 2}" cy="${height * 0.46}" rx="700" ry="900" fill="hsl(25,45%,${55 + seed}%)"/>
    <ellipse cx="1780" cy="1250" rx="90" ry="60" fill="#2b1d14"/><ellipse cx="2250" cy="1250" rx="90" ry="60" fill="#2b1d14"/>
    <path d="M1800 1750 Q2016 1900 2230 1750" stroke="#7a2e2e" stroke-width="40" fill="none"/>
  </svg>`;
  const grain = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 128, g: 128, b: 128 },
      noise: { type: "gaussian", mean: 128, sigma: 22 },
    },
  })
    // Raw pixels: the same grain as a PNG's, without compressing 36 MB of noise and reading it back
    // (that round trip took most of a minute per photo on a busy two-core machine).
    .raw()
    .toBuffer();
  // Rendered to pixels first: given the SVG itself, sharp would draw it again at the size asked for.
  const shapesAtHalf = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  const scaledUp = await sharp(shapesAtHalf, { raw: { ...drawn, channels: 3 } })
    .resize(width, height)
    .raw()
    .toBuffer();
  return sharp(scaledUp, { raw: { width, height, channels: 3 } })
    .composite([{ input: grain, raw: { width, height, channels: 3 }, blend: "soft-light" }])
    .jpeg({ quality: 90 })
    .withMetadata(orientation ? { orientation } : {})
    .toBuffer();
}
