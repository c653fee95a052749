// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { afterFirstLoad } from "./after-first-load.ts";

describe("work deferred past the first load", () => {
  let readyState: DocumentReadyState;
  beforeEach(() => {
    vi.useFakeTimers();
    readyState = "loading";
    vi.spyOn(document, "readyState", "get").mockImplementation(() => readyState);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("waits for load, then a quiet pause, then an idle moment", () => {
    const work = vi.fn();
    afterFirstLoad(work, 2_000);
    vi.advanceTimersByTime(10_000);
    expect(work).not.toHaveBeenCalled();
    readyState = "complete";
    window.dispatchEvent(new Event("load"));
    vi.advanceTimersByTime(1_999);
    expect(work).not.toHaveBeenCalled();
    // The pause, then requestIdleCallback (or its timeout) lets it run.
    vi.advanceTimersByTime(1 + 2_000);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it("counts the pause from now on a page that has already loaded", () => {
    readyState = "complete";
    const work = vi.fn();
    afterFirstLoad(work, 2_000);
    vi.advanceTimersByTime(1_999);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1 + 2_000);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it("does nothing once cancelled (a component unmounted before load)", () => {
    const work = vi.fn();
    const cancel = afterFirstLoad(work, 2_000);
    cancel();
    readyState = "complete";
    window.dispatchEvent(new Event("load"));
    vi.advanceTimersByTime(10_000);
    expect(work).not.toHaveBeenCalled();
  });
});
