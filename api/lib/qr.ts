import { onFirstUse } from "./on-first-use.ts";

// The QR codes the app draws (the ticket's door link, a host link), one size and error correction for
// all. The encoder loads at the first code drawn, not at the server's start (on-first-use.ts).

const encoder = onFirstUse(async () => (await import("qrcode")).default);
const look = { errorCorrectionLevel: "M", margin: 2, width: 320 } as const;

/** A QR code as a `data:image/png;base64,…` URL, for a reply the page shows as an image. */
export async function qrDataUrl(text: string): Promise<string> {
  return (await encoder()).toDataURL(text, look);
}

/** A QR code as PNG bytes, for an email's attachment. */
export async function qrPng(text: string): Promise<Buffer> {
  return (await encoder()).toBuffer(text, look);
}
