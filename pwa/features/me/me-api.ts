import { api, CallFailed, type Ok, send } from "../../lib/api.ts";

// My nights' calls (docs/api.md, "My nights"). Signing in is the booking's send-otp and verify-otp
// with `signIn` (pwa/features/booking/send-otp.ts, verify-otp.ts).

export type MyNights = Ok<(typeof api)["me"]["$get"]>;
export type MyNight = MyNights["nights"][number];

export type MeOutcome =
  | { status: "signed-in"; data: MyNights }
  | { status: "signed-out" }
  /** No answer at all: offline, or the server out of reach. */
  | { status: "offline" }
  | { status: "failed" };

/** GET /api/me: this browser's guest session and its number's nights, or why not. */
export async function getMyNights(): Promise<MeOutcome> {
  try {
    const reply = await send(api.me.$get());
    if (reply.ok) return { status: "signed-in", data: reply.data };
    return reply.data.code === "guest_session_required" ? { status: "signed-out" } : { status: "failed" };
  } catch (error) {
    if (error instanceof CallFailed) return { status: "offline" };
    throw error;
  }
}

/** Sign out: true once the server has ended the session (a copy of the cookie no longer works). */
export async function signOut(): Promise<boolean> {
  try {
    return (await send(api["me-logout"].$post())).ok;
  } catch (error) {
    if (error instanceof CallFailed) return false;
    throw error;
  }
}

export type MyData = Ok<(typeof api)["me-data"]["$get"]>;

/** **Download my data**: the JSON of everything held about the number, or why not. */
export async function downloadMyData(): Promise<
  { kind: "ok"; data: MyData } | { kind: "signed-out" } | { kind: "failed" }
> {
  try {
    const reply = await send(api["me-data"].$get());
    if (reply.ok) return { kind: "ok", data: reply.data };
    return reply.data.code === "guest_session_required" ? { kind: "signed-out" } : { kind: "failed" };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}

/** **Delete my details**: true once the server erased them (the session ends with it). */
export async function deleteMyDetails(): Promise<boolean> {
  try {
    return (await send(api["me-delete-details"].$post())).ok;
  } catch (error) {
    if (error instanceof CallFailed) return false;
    throw error;
  }
}

export type MyConsent = Ok<(typeof api)["me-consent"]["$get"]>;

export type ConsentOutcome = { kind: "ok"; data: MyConsent } | { kind: "signed-out" } | { kind: "failed" };

/** Messages about future events: the signed-in number's boxes as they stand. */
export async function getMyConsent(): Promise<ConsentOutcome> {
  try {
    const reply = await send(api["me-consent"].$get());
    if (reply.ok) return { kind: "ok", data: reply.data };
    return reply.data.code === "guest_session_required" ? { kind: "signed-out" } : { kind: "failed" };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}

/** Saves the boxes; the server records only the ones that changed, and answers them as they now stand. */
export async function saveMyConsent(choice: { sms: boolean; email?: boolean }): Promise<ConsentOutcome> {
  try {
    const reply = await send(api["me-consent"].$post({ json: choice }));
    if (reply.ok) return { kind: "ok", data: reply.data };
    return reply.data.code === "guest_session_required" ? { kind: "signed-out" } : { kind: "failed" };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}
