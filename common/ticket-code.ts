// The door finds a ticket by its code with no network (docs/decisions/008-door.md): the roster carries,
// per attendee, an HMAC-SHA-256 of the code under a key for that event, never the code. The server
// computes it with node:crypto (api/night/roster.ts), the door phone with WebCrypto (below); both
// normalise the typed code the same way first.

/** Codes are printed in capitals in groups; people type them in any case, with spaces or dashes. */
export const normaliseTicketCode = (code: string) => code.replace(/[\s-]+/g, "").toUpperCase();

const hexBytes = (hex: string) => new Uint8Array((hex.match(/../g) ?? []).map((b) => Number.parseInt(b, 16)));
const toHex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** The hex HMAC-SHA-256 of the normalised code under `keyHex` (the roster's `codeKey`), with WebCrypto. */
export async function ticketCodeHash(keyHex: string, typed: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", hexBytes(keyHex), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return toHex(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(normaliseTicketCode(typed))));
}
