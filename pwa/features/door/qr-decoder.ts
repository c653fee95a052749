/**
 * Reading a ticket's QR code from the camera. The code encodes
 * `${PUBLIC_BASE_URL}/confirm-booking?eventID=…&userID=…` (`qrCodeImage` of `send-confirmation`, docs/api.md).
 *
 * The browser's own `BarcodeDetector` is used where it exists (Chrome on Android and macOS, fast,
 * native). Elsewhere (Safari, Firefox, desktop Linux) jsQR decodes a canvas frame: pure JavaScript,
 * no WebAssembly or network, Apache-2.0, and loaded with a dynamic import so its ~47 KB (gzipped) are
 * their own chunk, fetched only when a door phone scans (and precached for offline use).
 */

export type TicketRef = { eventID: number; userID: number };

const positiveId = (value: string | null) => (value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null);

/** The booking a scanned text names, or null when it is not one of our tickets. */
export function parseTicket(text: string): TicketRef | null {
  let url: URL;
  try {
    // Any origin: the site may be reached by another name at the venue than PUBLIC_BASE_URL's.
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname.replace(/\/+$/, "") !== "/confirm-booking") return null;
  const eventID = positiveId(url.searchParams.get("eventID"));
  const userID = positiveId(url.searchParams.get("userID"));
  return eventID && userID ? { eventID, userID } : null;
}

// Any host will do: only the path and the query name the ticket.
const SOMEWHERE = "https://ticket.invalid";

/**
 * The booking a ticket link typed (or pasted) by hand names: the whole link as the QR code holds it,
 * or the link without `https://`, from `/confirm-booking`, or just `eventID=…&userID=…`. Null otherwise.
 */
export function parseTypedTicket(typed: string): TicketRef | null {
  const text = typed.trim().replace(/\s+/g, "");
  if (!text) return null;
  if (/^https?:/i.test(text)) return parseTicket(text);
  if (text.startsWith("/")) return parseTicket(SOMEWHERE + text);
  if (/^\??eventID=/i.test(text) || /^\??userID=/i.test(text)) {
    return parseTicket(`${SOMEWHERE}/confirm-booking?${text.replace(/^\?/, "")}`);
  }
  return parseTicket(`https://${text}`);
}

/** The typed text looks like a ticket's unique code (`ABCD EFGH 23`) rather than its link. */
export const looksLikeUniqueCode = (typed: string) => /^[a-z\d]{6,16}$/i.test(typed.replace(/[\s-]+/g, ""));

/** RGBA pixels, as a canvas's ImageData or sharp's raw output give them. */
export type Pixels = { data: Uint8ClampedArray; width: number; height: number };

type JsQr = typeof import("jsqr").default;
let jsQrLoading: Promise<JsQr> | undefined;

/** jsQR, fetched on first use. */
export function loadJsQr(): Promise<JsQr> {
  jsQrLoading ??= import("jsqr").then((m) => m.default);
  return jsQrLoading;
}

/** The text of the QR code in an image, or null. */
export async function decodePixels(pixels: Pixels): Promise<string | null> {
  const jsQR = await loadJsQr();
  // Printed and on-screen tickets are dark on light; trying the inverse too doubles the work per frame.
  return jsQR(pixels.data, pixels.width, pixels.height, { inversionAttempts: "dontInvert" })?.data ?? null;
}

type BarcodeDetectorLike = { detect(source: CanvasImageSource): Promise<{ rawValue: string }[]> };
type BarcodeDetectorClass = {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats?(): Promise<string[]>;
};

export type FrameDecoder = {
  kind: "barcode-detector" | "jsqr";
  /** The QR text in the video's current frame, or null. */
  decode(video: HTMLVideoElement): Promise<string | null>;
};

// Frames are scaled down to this width before jsQR reads them: a QR held up to a phone fills the frame,
// and a smaller image keeps each attempt well under the time between attempts.
const MAX_SCAN_WIDTH = 640;

export async function createFrameDecoder(): Promise<FrameDecoder> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Detector) {
    try {
      const formats = (await Detector.getSupportedFormats?.()) ?? ["qr_code"];
      if (formats.includes("qr_code")) {
        const detector = new Detector({ formats: ["qr_code"] });
        return {
          kind: "barcode-detector",
          decode: async (video) => (await detector.detect(video))[0]?.rawValue ?? null,
        };
      }
    } catch {
      // Present but unusable (no platform support): fall through to jsQR.
    }
  }
  await loadJsQr();
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  return {
    kind: "jsqr",
    decode: async (video) => {
      if (!context || video.videoWidth === 0) return null;
      const scale = Math.min(1, MAX_SCAN_WIDTH / video.videoWidth);
      canvas.width = Math.round(video.videoWidth * scale);
      canvas.height = Math.round(video.videoHeight * scale);
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      return decodePixels(context.getImageData(0, 0, canvas.width, canvas.height));
    },
  };
}

/**
 * Whether a camera can be used here at all: a secure context (https or localhost), getUserMedia, and
 * a Permissions-Policy that allows the camera. Where not, Scan ticket goes straight to typing the code.
 */
export function cameraUsable(): boolean {
  if (typeof window === "undefined" || !window.isSecureContext) return false;
  if (typeof navigator.mediaDevices?.getUserMedia !== "function") return false;
  const policy = (document as Document & { permissionsPolicy?: { allowsFeature(f: string): boolean } })
    .permissionsPolicy;
  const legacy = (document as Document & { featurePolicy?: { allowsFeature(f: string): boolean } }).featurePolicy;
  const allows = policy ?? legacy;
  return allows ? allows.allowsFeature("camera") : true;
}
