import type { Gender } from "./types.ts";

export type Draft = { name: string; email: string; gender: Gender | "" };

// What was typed survives Back from /confirmation and a reload, for this tab only (sessionStorage),
// and carries between the details form and the waitlist form of the same event.
const key = (eventId: number) => `saathi-booking-draft:${eventId}`;

export function readDraft(eventId: number): Draft {
  try {
    const saved = JSON.parse(sessionStorage.getItem(key(eventId)) ?? "{}") as Record<string, unknown>;
    return {
      name: typeof saved.name === "string" ? saved.name : "",
      email: typeof saved.email === "string" ? saved.email : "",
      gender: saved.gender === "male" || saved.gender === "female" ? saved.gender : "",
    };
  } catch {
    return { name: "", email: "", gender: "" };
  }
}

export function saveDraft(eventId: number, change: Partial<Draft>) {
  try {
    sessionStorage.setItem(key(eventId), JSON.stringify({ ...readDraft(eventId), ...change }));
  } catch {
    // Storage refused (private mode): the form still works, it just won't be remembered.
  }
}
