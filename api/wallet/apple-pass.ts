import { OVER_AFTER_PLANNED_END_MS } from "../../common/ticket-status.ts";
import type { Env } from "../env.ts";
import { loadSharp } from "../lib/sharp.ts";
import type { AppleWalletKeys } from "./keys.ts";
import { type PassFacts, passAuthToken } from "./pass-facts.ts";

// The ticket as an Apple Wallet event ticket (issue 50, docs/decisions/053-wallet-passes.md, "Apple"):
// pass.json made from the pass facts, the images, then manifest.json and the detached PKCS#7
// signature, which passkit-generator makes with the Pass Type ID certificate and the WWDR intermediate.

/** What making an Apple pass needs: the settings (its web service's address, the auth token's secret) and the keys. */
export type ApplePassDeps = {
  env: Pick<Env, "PUBLIC_BASE_URL" | "SESSION_SECRET">;
  wallet: { apple: AppleWalletKeys | null };
};

/**
 * The app's mark (public/logo.svg: the heart on its gradient), drawn here so the pass's images need
 * no file beside the server's bundle. Made into PNGs once, on the first pass.
 */
const MARK_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e8436f"/><stop offset="1" stop-color="#7b2ff7"/></linearGradient></defs><rect width="64" height="64" rx="14" fill="url(#g)"/><path d="M32 50C20 41 13 33 16 24c2-6 9-8 14-4l2 2 2-2c5-4 12-2 14 4 3 9-4 17-16 26z" fill="#fff"/></svg>';

/** Apple's sizes in points: the icon (lock screen, notifications) 29×29, the logo at most 160×50; @2x and @3x double and triple them. */
const IMAGE_SIZES: Record<string, number> = {
  "icon.png": 29,
  "icon@2x.png": 58,
  "icon@3x.png": 87,
  "logo.png": 50,
  "logo@2x.png": 100,
  "logo@3x.png": 150,
};

let images: Promise<Record<string, Buffer>> | undefined;

/** The pass's images, made once per process. */
function passImages(): Promise<Record<string, Buffer>> {
  images ??= (async () => {
    const sharp = await loadSharp();
    const entries = await Promise.all(
      Object.entries(IMAGE_SIZES).map(async ([name, size]) => {
        const png = await sharp(Buffer.from(MARK_SVG), { density: 72 * Math.ceil(size / 64) * 2 })
          .resize(size, size)
          .png()
          .toBuffer();
        return [name, png] as const;
      }),
    );
    return Object.fromEntries(entries);
  })();
  images.catch(() => {
    images = undefined;
  });
  return images;
}

/** Apple's colours are `rgb(r, g, b)`: the app's theme (#c2366b) under white text. */
const COLOURS = {
  backgroundColor: "rgb(194, 54, 107)",
  foregroundColor: "rgb(255, 255, 255)",
  labelColor: "rgb(255, 226, 236)",
};

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The booking's signed .pkpass (a zip of pass.json, its images, manifest.json and signature). Throws
 * when Apple Wallet is not configured; the route answers 404 before it gets here.
 */
export async function applePassBuffer(deps: ApplePassDeps, facts: PassFacts): Promise<Buffer> {
  const keys = deps.wallet.apple;
  if (!keys) throw new Error("applePassBuffer: Apple Wallet is not configured");
  // Loaded at the first pass, not at every start: a server without Apple's keys never needs it.
  const { PKPass } = await import("passkit-generator");
  const pass = new PKPass(
    await passImages(),
    {
      wwdr: keys.wwdr,
      signerCert: keys.signerCert,
      signerKey: keys.signerKey,
      ...(keys.signerKeyPassphrase ? { signerKeyPassphrase: keys.signerKeyPassphrase } : {}),
    },
    {
      formatVersion: 1,
      passTypeIdentifier: keys.passTypeId,
      teamIdentifier: keys.teamId,
      serialNumber: facts.serialNumber,
      organizationName: facts.businessName,
      description: `Ticket: ${facts.eventName}`,
      logoText: facts.businessName,
      webServiceURL: `${deps.env.PUBLIC_BASE_URL}/api/passkit`,
      authenticationToken: passAuthToken(deps.env, facts.serialNumber),
      ...COLOURS,
      ...(facts.valid ? {} : { voided: true }),
      semantics: {
        eventType: "PKEventTypeSocialGathering",
        eventName: facts.eventName,
        eventStartDate: iso(facts.startsAt),
        eventEndDate: iso(facts.endsAt),
        venueName: facts.venueName,
      },
    },
  );
  pass.type = "eventTicket";
  if (!facts.valid) pass.headerFields.push({ key: "status", label: "NOT VALID", value: facts.notValidReason ?? "" });
  pass.primaryFields.push({ key: "event", label: facts.valid ? "EVENT" : "NOT VALID", value: facts.eventName });
  pass.secondaryFields.push(
    { key: "starts", label: "STARTS", value: facts.startsAtText, changeMessage: "Your night now starts %@" },
    { key: "doors", label: "DOORS OPEN", value: facts.doorsOpenText, textAlignment: "PKTextAlignmentRight" },
  );
  pass.auxiliaryFields.push(
    { key: "guest", label: "GUEST", value: facts.guestName },
    { key: "code", label: "DOOR CODE", value: facts.ticketCode, textAlignment: "PKTextAlignmentRight" },
  );
  pass.backFields.push(...backFields(deps.env, facts));
  if (facts.valid) {
    // The same door link the ticket page's QR encodes, so the door needs no change. A pass that is no
    // longer valid shows none: the door would refuse it anyway.
    pass.setBarcodes({
      format: "PKBarcodeFormatQR",
      message: facts.qrPayload,
      messageEncoding: "iso-8859-1",
      altText: facts.ticketCode,
    });
  }
  pass.setRelevantDate(new Date(facts.doorsOpenAt));
  // Greyed out on the phone once the night is over by the clock, as the ticket page says `ended`.
  pass.setExpirationDate(new Date(facts.endsAt + OVER_AFTER_PLANNED_END_MS));
  return pass.getAsBuffer();
}

/** The back of the pass: where, the venue's notes, who runs it and how to cancel. Never the ticket link (a capability). */
function backFields(env: ApplePassDeps["env"], facts: PassFacts) {
  return [
    {
      key: "address",
      label: "ADDRESS",
      value: facts.address,
      dataDetectorTypes: ["PKDataDetectorTypeAddress" as const],
    },
    ...(facts.venueNotes ? [{ key: "notes", label: "VENUE NOTES", value: facts.venueNotes }] : []),
    { key: "organiser", label: "ORGANISER", value: facts.businessName },
    {
      key: "support",
      label: "QUESTIONS",
      value: facts.supportEmail,
      dataDetectorTypes: ["PKDataDetectorTypeLink" as const],
    },
    {
      key: "cancel",
      label: "TO CANCEL",
      value: `Sign in at ${env.PUBLIC_BASE_URL}/me with your mobile number, open My nights and tap Cancel my booking. What comes back depends on how close to the night you cancel.`,
    },
  ];
}
