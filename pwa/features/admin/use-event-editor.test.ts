// @vitest-environment happy-dom
import { cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useEventEditor } from "./use-event-editor.ts";

// The Edit tab's event (docs/decisions/049-one-hook-for-a-reply.md): read through useReply. The tab
// says "Loading event..." while `loading` and the event is not there, and "Couldn't load that event."
// when it cannot be read (no Try again: picking the event again reads it again).

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the Edit tab's event", () => {
  it("loads, says when the event can't be read, and a new pick reads again without the last message", async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        asked.push(url);
        throw new TypeError("Failed to fetch");
      }),
    );
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { result, rerender } = renderHook(({ id }) => useEventEditor(id, () => {}), {
      initialProps: { id: 7 as number | null },
    });
    expect(result.current.loading).toBe(true);
    expect(result.current.event).toBeNull();
    await waitFor(() => expect(result.current.message).toEqual({ kind: "error", text: "Couldn't load that event." }));
    expect(result.current.loading).toBe(false);
    expect(result.current.event).toBeNull();
    expect(result.current.draft).toBeNull();
    expect(asked).toEqual(["/api/admin-event/7"]);

    rerender({ id: 8 });
    expect(result.current.message).toBeNull();
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(result.current.message).toEqual({ kind: "error", text: "Couldn't load that event." }));
    expect(asked).toEqual(["/api/admin-event/7", "/api/admin-event/8"]);

    rerender({ id: null });
    expect(result.current.loading).toBe(false);
    expect(result.current.message).toBeNull();
  });
});
