import { useState } from "react";
import { CallFailed } from "../../lib/api.ts";
import { useReply } from "../../lib/use-reply.ts";
import { getKeepApart, type KeepApartState, setKeepApart } from "./rounds-api.ts";

export type KeepApartLoad = { status: "error"; message: string } | { status: "ready"; data: KeepApartState };

/**
 * The organiser's **Keep apart** marks for one event (docs/decisions/030-nobody-across-the-table-twice.md):
 * read once, then each change answers the whole card. `onPlanChanged` runs when marking a pair
 * re-planned the rounds, so the console shows the new plan at once rather than at its next poll.
 */
export function useKeepApart(eventID: number, onPlanChanged: () => unknown) {
  const { state, setState, reload } = useReply(eventID, {
    async load(id: number): Promise<KeepApartLoad> {
      const reply = await getKeepApart(id);
      return reply.ok
        ? { status: "ready", data: reply.data }
        : { status: "error", message: "Couldn't load who is kept apart." };
    },
    failed: (): KeepApartLoad => ({ status: "error", message: "Couldn't reach the server to load who is kept apart." }),
  });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const change = async (userIDs: [number, number], apart: boolean) => {
    setBusy(true);
    setProblem(null);
    try {
      const reply = await setKeepApart(eventID, userIDs, apart);
      if (reply.ok) {
        const { replanned, ...data } = reply.data;
        setState({ status: "ready", data });
        if (replanned) await onPlanChanged();
        return true;
      }
      const code = reply.data.code;
      setProblem(
        code === "wrong_state"
          ? "This night is over: there are no rounds left to keep them apart in."
          : code === "not_found"
            ? "Both must be guests of this event with a paid seat."
            : code === "room_too_large"
              ? "Too many people are present to re-plan the rounds, so nothing was marked: mark those who left first."
              : `Couldn't save that: ${reply.data.error ?? "please try again."}`,
      );
    } catch (error) {
      if (!(error instanceof CallFailed)) throw error;
      setProblem("No connection: Keep apart needs the network.");
    } finally {
      setBusy(false);
    }
    return false;
  };

  return { state, busy, problem, reload, change };
}
