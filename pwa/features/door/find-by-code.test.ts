import { describe, expect, it } from "vitest";
import { findByCode, normaliseCode } from "./find-by-code.ts";

/** A server that knows each booking's code, counting what it is asked. */
function server(codes: Record<number, string | null>) {
  const asked: number[] = [];
  const codeOf = async (_eventID: number, userID: number) => {
    asked.push(userID);
    return codes[userID] ?? null;
  };
  return { asked, codeOf };
}

describe("finding an attendee by the code on their ticket", () => {
  it("finds the attendee whose code was typed, in any case and with spaces or dashes", async () => {
    const { codeOf } = server({ 1: "ABCDEFGH23", 2: "HJKMNPQRST", 3: "ZXCVBNM234" });
    expect(await findByCode(101, [1, 2, 3], "hjkm npqr st", codeOf)).toBe(2);
    expect(await findByCode(102, [1, 2, 3], " ZXCV-BNM2-34 ", codeOf)).toBe(3);
    expect(normaliseCode("ab-cd ef")).toBe("ABCDEF");
  });

  it("says null for a code nobody at this event has", async () => {
    const { codeOf } = server({ 1: "ABCDEFGH23", 2: null });
    expect(await findByCode(103, [1, 2], "NOTACODE22", codeOf)).toBeNull();
    expect(await findByCode(103, [1, 2], "   ", codeOf)).toBeNull();
  });

  it("asks the server about each attendee once per door, and again only about a booking with no code yet", async () => {
    const { asked, codeOf } = server({ 1: "ABCDEFGH23", 2: null, 3: "ZXCVBNM234" });
    expect(await findByCode(104, [1, 2, 3], "ZXCVBNM234", codeOf)).toBe(3);
    expect(asked.sort()).toEqual([1, 2, 3]);
    asked.length = 0;
    expect(await findByCode(104, [1, 2, 3], "ABCDEFGH23", codeOf)).toBe(1);
    expect(await findByCode(104, [1, 2, 3], "WRONGCODE2", codeOf)).toBeNull();
    expect(asked).toEqual([2]);
  });

  it("stops asking once the code is found", async () => {
    const ids = Array.from({ length: 60 }, (_, i) => i + 1);
    const codes = Object.fromEntries(ids.map((id) => [id, `CODE${String(id).padStart(6, "0")}`]));
    const { asked, codeOf } = server(codes);
    expect(await findByCode(105, ids, "CODE000002", codeOf)).toBe(2);
    expect(asked.length).toBeLessThan(20);
  });
});
