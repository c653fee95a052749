// @vitest-environment happy-dom
import "fake-indexeddb/auto";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetOfflineDbForTests } from "../../lib/offline-db.ts";
import { useFeedbackStore, usePartnerFeedback } from "./feedback-store.ts";
import { flushQueue, resetTapQueueForTests } from "./tap-queue.ts";

const link = { eventID: 7, userID: 1, token: "tok" };
/** Every held server's release, so a failed test does not leave its queue waiting. */
const releases: (() => void)[] = [];

/** The API at the network edge, holding every request until `release` (a phone on slow venue Wi-Fi). */
function slowServer() {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init: RequestInit) => {
      await gate;
      const body = JSON.parse(String(init.body)) as { feedback: string; clientTs: number };
      return Response.json({ success: true, feedback: body.feedback, clientTs: body.clientTs });
    }),
  );
  releases.push(() => release());
  return { release: () => release() };
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetOfflineDbForTests();
  resetTapQueueForTests();
  useFeedbackStore.setState({ link: null, choices: {}, pending: 0, late: 0, notices: [] });
});
afterEach(async () => {
  cleanup();
  for (const release of releases.splice(0)) release();
  await flushQueue().catch(() => undefined);
  resetTapQueueForTests();
  vi.unstubAllGlobals();
});

describe("the partners page's store", () => {
  it("counts a tap as waiting from the moment it is highlighted, until the server has it", async () => {
    const server = slowServer();
    const { result } = renderHook(() => usePartnerFeedback(link));
    await waitFor(() => expect(result.current.link).toEqual(link));
    expect(result.current.pending).toBe(0);

    await act(() => result.current.tap(2, "like"));
    // The highlight and the count come together: the page never says "All choices saved" beside a
    // tap that has not been sent (a guest closing the page then would think it was).
    expect(result.current).toMatchObject({ choices: { 2: "like" }, pending: 1 });

    server.release();
    await waitFor(() => expect(result.current.pending).toBe(0));
    expect(result.current.choices).toEqual({ 2: "like" });
  });
});
