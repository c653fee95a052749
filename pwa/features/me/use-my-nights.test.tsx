// @vitest-environment happy-dom
import "fake-indexeddb/auto";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetOfflineDbForTests } from "../../lib/offline-db.ts";
import { useMyNights } from "./use-my-nights.ts";

// /me's reply through useReply (docs/decisions/049-one-hook-for-a-reply.md): loading, the failure
// with Try again, offline without asking, back online in place, and a late reply after Sign out.

/** GET /api/me at the network edge: answers `me` (a status), or holds each answer until let go. */
function fakeServer() {
  const server = { me: 200, hold: false, held: [] as (() => void)[], calls: 0, dead: 0 };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      if (url === "/api/me-logout") return Response.json({ success: true });
      if (url !== "/api/me") throw new Error(`not in this fake: ${url}`);
      server.calls++;
      const status = server.me;
      if (server.hold) await new Promise<void>((resolve) => server.held.push(resolve));
      // A network that does not carry anything yet: the next `dead` calls fail as fetch does.
      if (server.dead > 0) {
        server.dead--;
        throw new TypeError("Failed to fetch");
      }
      const body =
        status === 200 ? { nights: [] } : { success: false, error: "internal error", code: "internal_error" };
      // Read without a stream, so an answer let go is through within one turn of the event loop.
      return { ok: status === 200, status, headers: new Headers(), json: async () => body } as unknown as Response;
    }),
  );
  return server;
}

function setOnline(online: boolean) {
  Object.defineProperty(navigator, "onLine", { value: online, configurable: true });
  window.dispatchEvent(new Event(online ? "online" : "offline"));
}

/** /me opened and signed in, for a case that starts there. */
async function signedIn() {
  const server = fakeServer();
  const hook = renderHook(() => useMyNights());
  await waitFor(() => expect(hook.result.current.state.status).toBe("signed-in"));
  return { server, ...hook };
}

/** Runs `steps` with timers on a clock the test moves (`wait(ms)`), then puts the real one back. */
async function onMovedClock(steps: (wait: (ms: number) => Promise<unknown>) => Promise<void>) {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    await steps((ms) => act(() => vi.advanceTimersByTimeAsync(ms)));
  } finally {
    vi.useRealTimers();
  }
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetOfflineDbForTests();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "onLine");
});

describe("My nights' reply", () => {
  it("says it couldn't load them, and Try again shows the loading line and then the nights", async () => {
    const server = fakeServer();
    server.me = 500;
    const { result } = renderHook(() => useMyNights());
    expect(result.current.state.status).toBe("loading");
    await waitFor(() => expect(result.current.state.status).toBe("failed"));

    server.me = 200;
    server.hold = true;
    act(() => void result.current.reload());
    expect(result.current.state.status).toBe("loading");
    await waitFor(() => expect(server.held).toHaveLength(1));
    await act(async () => server.held.shift()?.());
    await waitFor(() => expect(result.current.state.status).toBe("signed-in"));
  });

  it("opened offline says so without asking, and reads in place when the network comes back", async () => {
    const server = fakeServer();
    Object.defineProperty(navigator, "onLine", { value: false, configurable: true });
    const { result } = renderHook(() => useMyNights());
    await waitFor(() => expect(result.current.state.status).toBe("offline"));
    expect(server.calls).toBe(0);

    const seen: string[] = [];
    server.hold = true;
    act(() => setOnline(true));
    await waitFor(() => expect(server.held).toHaveLength(1));
    seen.push(result.current.state.status);
    await act(async () => server.held.shift()?.());
    await waitFor(() => expect(result.current.state.status).toBe("signed-in"));
    expect(seen).toEqual(["offline"]);
  });

  it("back online before the network carries anything, reads again 1 and 3 s later, and stops once through", async () => {
    const server = fakeServer();
    Object.defineProperty(navigator, "onLine", { value: false, configurable: true });
    const { result } = renderHook(() => useMyNights());
    await waitFor(() => expect(result.current.state.status).toBe("offline"));

    server.dead = 2;
    await onMovedClock(async (wait) => {
      act(() => setOnline(true));
      await wait(0);
      expect(server.calls).toBe(1);
      expect(result.current.state.status).toBe("offline");
      await wait(999);
      expect(server.calls).toBe(1);
      await wait(1);
      expect(server.calls).toBe(2);
      expect(result.current.state.status).toBe("offline");
      await wait(3_000);
      expect(server.calls).toBe(3);
      expect(result.current.state.status).toBe("signed-in");
      // Through: nothing more is asked.
      await wait(60_000);
      expect(server.calls).toBe(3);
    });
  });

  it("gives up asking again after 30 s, and a reload still works", async () => {
    const { server, result } = await signedIn();

    server.dead = 99;
    await onMovedClock(async (wait) => {
      act(() => result.current.refresh());
      await wait(0);
      expect(result.current.state.status).toBe("offline");
      await wait(1_000 + 3_000 + 10_000 + 30_000);
      expect(server.calls).toBe(1 + 1 + 4);
      await wait(600_000);
      expect(server.calls).toBe(6);
    });
    server.dead = 0;
    act(() => void result.current.reload());
    await waitFor(() => expect(result.current.state.status).toBe("signed-in"));
  });

  it("asks nothing more once the page is gone, even for a read that fails after it went", async () => {
    const { server, result, unmount } = await signedIn();

    server.dead = 99;
    server.hold = true;
    await onMovedClock(async (wait) => {
      act(() => result.current.refresh());
      await wait(0);
      expect(server.held).toHaveLength(1);
      unmount();
      await act(async () => server.held.shift()?.());
      await wait(60_000);
      expect(server.calls).toBe(2);
    });
  });

  it("keeps Sign out when a read sent before it answers after it", async () => {
    const server = fakeServer();
    const { result } = renderHook(() => useMyNights());
    await waitFor(() => expect(result.current.state.status).toBe("signed-in"));

    server.hold = true;
    act(() => result.current.refresh());
    await waitFor(() => expect(server.held).toHaveLength(1));
    await act(async () => {
      expect(await result.current.signOut()).toBe(true);
    });
    expect(result.current.state.status).toBe("signed-out");
    await act(async () => {
      server.held.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(result.current.state.status).toBe("signed-out");
  });
});
