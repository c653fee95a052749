import { describe, expect, it } from "vitest";
import type { RosterAttendee } from "../../../api/night/roster.ts";
import { ticketCodeHash } from "../../../common/ticket-code.ts";
import { findByCode, normaliseCode } from "./find-by-code.ts";

// The door finds a ticket by its code on the phone, from the roster's keyed hashes, with no network.
// (api/night/roster.test.ts shows the server's hashes are the same bytes.)

const key = "1f".repeat(32);
const person = async (userID: number, code: string | null): Promise<RosterAttendee> => ({
  userID,
  name: `Person ${userID}`,
  gender: "female",
  thumbName: "t.jpg",
  phoneLast4: "5678",
  checkedInAt: null,
  age: 30,
  codeHash: code === null ? null : await ticketCodeHash(key, code),
});
const roster = {
  codeKey: key,
  attendees: await Promise.all([person(1, "ABCDEFGH23"), person(2, "HJKMNPQRST"), person(3, null)]),
};

describe("finding an attendee by the code on their ticket", () => {
  it("finds the attendee whose code was typed, in any case and with spaces or dashes", async () => {
    expect(await findByCode(roster, "hjkm npqr st")).toBe(2);
    expect(await findByCode(roster, " ABCD-EFGH-23 ")).toBe(1);
    expect(normaliseCode("ab-cd ef")).toBe("ABCDEF");
  });

  it("says null for a code nobody at this event has, for a name, and for a roster kept before hashes", async () => {
    expect(await findByCode(roster, "NOTACODE22")).toBeNull();
    expect(await findByCode(roster, "Priya")).toBeNull();
    expect(await findByCode(roster, "   ")).toBeNull();
    expect(await findByCode({ attendees: roster.attendees }, "ABCDEFGH23")).toBeNull();
  });

  it("never finds another event's ticket: each event has its own key", async () => {
    const other = "2e".repeat(32);
    expect(await findByCode({ ...roster, codeKey: other }, "ABCDEFGH23")).toBeNull();
  });
});
