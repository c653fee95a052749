import { afterEach, describe, expect, it, vi } from "vitest";
import { saveUserDetails } from "./save-user-details.ts";
import { verifyOtp } from "./verify-otp.ts";

// The server's replies, faked at the network edge, and what each one means to the attendee.
const answer = (status: number, body: unknown) =>
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })),
  );
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("verifyOtp", () => {
  it("calls a refused code incorrect, but a server or SMS-provider fault a failed call", async () => {
    answer(200, { success: true });
    expect(await verifyOtp("+61412345678", "123456")).toBe("verified");
    answer(400, { success: false, error: "wrong code" });
    expect(await verifyOtp("+61412345678", "123456")).toBe("incorrect");
    // Past the wrong-code limit even the right code is refused: not "incorrect".
    answer(429, { success: false, error: "too many wrong codes for this phone, try again in an hour" });
    expect(await verifyOtp("+61412345678", "123456")).toBe("limited");
    answer(502, { success: false, error: "provider down" });
    expect(await verifyOtp("+61412345678", "123456")).toBe("failed");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    expect(await verifyOtp("+61412345678", "123456")).toBe("failed");
  });
});

describe("saveUserDetails", () => {
  const details = {
    name: "Asha",
    email: "asha@example.com",
    phone: "+61412345678",
    gender: "female" as const,
    eventID: 1,
    eventName: "Mixer",
    image: new File([new Uint8Array([1, 2, 3])], "me.jpg", { type: "image/jpeg" }),
  };

  it("tells sold out, a lapsed verification and a server fault apart", async () => {
    answer(200, { success: true, userID: 7 });
    expect(await saveUserDetails(details)).toEqual({ kind: "saved", userID: 7 });
    answer(409, { success: false, error: "no seats left" });
    expect(await saveUserDetails(details)).toEqual({ kind: "sold-out" });
    answer(403, { success: false, error: "verify this phone number first" });
    expect(await saveUserDetails(details)).toEqual({ kind: "unverified" });
    answer(500, { success: false, error: "internal error" });
    expect(await saveUserDetails(details)).toEqual({ kind: "failed" });
    answer(415, { success: false, error: "not an image (JPEG, PNG or WebP)" });
    expect(await saveUserDetails(details)).toEqual({ kind: "refused", error: "not an image (JPEG, PNG or WebP)" });
  });
});
