import { api, CallFailed, type Ok, send } from "../../lib/api.ts";

// The guest's choice when their night was cancelled or moved (docs/decisions/059-short-of-numbers.md):
// the link's `t` is the whole proof, and no reply names anyone else.

export type GuestChoice = Ok<(typeof api)["guest-choice"]["$get"]>;
export type Choice = "refund" | "credit" | "move";
export type ChoiceStatus = "refunded" | "credited" | "moved";

export type Loaded = { kind: "ok"; data: GuestChoice } | { kind: "invalid"; message: string } | { kind: "failed" };

/** The choice the link names; "invalid" for a cut or altered link (its sentence from the server). */
export async function loadChoice(t: string): Promise<Loaded> {
  try {
    const reply = await send(api["guest-choice"].$get({ query: { t } }));
    if (reply.ok) return { kind: "ok", data: reply.data };
    return reply.status === 400 || reply.status === 401
      ? { kind: "invalid", message: reply.data.error }
      : { kind: "failed" };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}

export type Chosen =
  | { kind: "done"; choice: Choice; status: ChoiceStatus }
  | { kind: "already"; choice: Choice; message: string }
  | { kind: "invalid"; message: string }
  | { kind: "failed" };

/** Sends the choice once; the same again answers the same, another names the one made. */
export async function makeChoice(t: string, choice: Choice): Promise<Chosen> {
  try {
    const reply = await send(api["guest-choice"].$post({ json: { t, choice } }));
    if (reply.ok) return { kind: "done", choice: reply.data.choice, status: reply.data.status };
    if (reply.data.code === "already_chosen")
      return { kind: "already", choice: reply.data.choice, message: reply.data.error };
    if (reply.status === 400 || reply.status === 401) return { kind: "invalid", message: reply.data.error };
    return { kind: "failed" };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}
