import { describe, expect, it } from "vitest";
import { normaliseTicketCode, ticketCodeHash } from "../../common/ticket-code.ts";
import { codeHashOf, doorCodeKey } from "./roster.ts";

// The roster's code hashes (node:crypto, on the server) and the door's (WebCrypto, on the phone) must
// agree byte for byte, or a typed code finds nobody offline (docs/decisions/008-door.md).

describe("the ticket code's keyed hash", () => {
  const key = doorCodeKey("a-session-secret-of-enough-length-0123456789", 7);

  it("is the same on the server and on the door phone, whatever case, spaces or dashes are typed", async () => {
    const stored = codeHashOf(key, "6M8N57X8FY");
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    for (const typed of ["6M8N57X8FY", "6m8n57x8fy", " 6m8n 57x8 fy ", "6M8N-57X8-FY", "6m8n\t57x8fy"]) {
      expect(await ticketCodeHash(key, typed)).toBe(stored);
    }
    expect(await ticketCodeHash(key, "6M8N57X8FZ")).not.toBe(stored);
  });

  it("differs between events, so one roster's hashes say nothing about another's", () => {
    const other = doorCodeKey("a-session-secret-of-enough-length-0123456789", 8);
    expect(other).not.toBe(key);
    expect(codeHashOf(other, "6M8N57X8FY")).not.toBe(codeHashOf(key, "6M8N57X8FY"));
  });

  it("normalises to capitals without spaces or dashes", () => {
    expect(normaliseTicketCode(" ab-cd ef\n")).toBe("ABCDEF");
  });
});
