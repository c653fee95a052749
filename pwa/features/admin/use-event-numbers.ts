import { useCallback, useEffect, useRef, useState } from "react";
import { type EventNumbers, getEventNumbers } from "./admin-api.ts";

export type NumbersState = EventNumbers | "loading" | "error";

// A few at a time: the panel stays quick with dozens of events without a burst of requests.
const AT_ONCE = 4;

/** The Overview's numbers for each event id, fetched together and refreshed on demand. */
export function useEventNumbers(ids: number[]) {
  const [numbers, setNumbers] = useState<Map<number, NumbersState>>(new Map());
  const generation = useRef(0);
  const key = ids.join(",");

  const load = useCallback(async (wanted: number[]) => {
    const run = ++generation.current;
    setNumbers((old) => new Map(wanted.map((id) => [id, old.get(id) ?? "loading"])));
    const queue = [...wanted];
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        let value: NumbersState;
        try {
          const reply = await getEventNumbers(id);
          value = reply.ok ? reply.data : "error";
        } catch (error) {
          console.warn(error);
          value = "error";
        }
        // A newer load (Refresh, a changed list) owns the table now.
        if (run !== generation.current) return;
        setNumbers((old) => new Map(old).set(id, value));
      }
    };
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, wanted.length) }, worker));
  }, []);

  useEffect(() => {
    void load(key ? key.split(",").map(Number) : []);
  }, [key, load]);

  return { numbers, reload: () => load(key ? key.split(",").map(Number) : []) };
}
