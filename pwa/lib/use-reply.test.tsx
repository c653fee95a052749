// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReplyView } from "../components/ui/reply-view.tsx";
import { CallFailed } from "./api-reply.ts";
import { useReply } from "./use-reply.ts";

type Shown = { status: "ready"; names: string[] } | { status: "error"; message: string };

/** A reply the test answers when it likes: `answer` resolves the oldest call still waiting, `fail` rejects it. */
function fakeServer() {
  const waiting: { resolve(names: string[] | Shown): void; reject(error: unknown): void; key: string }[] = [];
  const load = vi.fn(
    (key: string) =>
      new Promise<Shown>((resolve, reject) =>
        waiting.push({
          key,
          resolve: (answer) => resolve(Array.isArray(answer) ? { status: "ready", names: answer } : answer),
          reject,
        }),
      ),
  );
  const next = () => {
    const call = waiting.shift();
    if (!call) throw new Error("no call is waiting");
    return call;
  };
  return {
    load,
    answer: (answer: string[] | Shown) => act(async () => next().resolve(answer)),
    fail: (error: unknown) => act(async () => next().reject(error)),
    waiting,
  };
}

function Names(props: {
  server: ReturnType<typeof fakeServer>;
  id?: string | null;
  cached?: () => Promise<Shown | undefined>;
}) {
  const { state, reload, refresh } = useReply(props.id === undefined ? "guests" : props.id, {
    load: (key: string) => props.server.load(key),
    failed: (error): Shown => ({
      status: "error",
      message: error instanceof CallFailed ? "You seem to be offline." : "We couldn't load the guests.",
    }),
    cached: props.cached,
  });
  return (
    <>
      <button type="button" onClick={() => void refresh()}>
        Refresh
      </button>
      <ReplyView
        state={state}
        idle={<p>Choose an event.</p>}
        loading={<p role="status">Loading the guests...</p>}
        onRetry={reload}
        isEmpty={(ready) => ready.names.length === 0}
        empty={<p>Nobody yet.</p>}
      >
        {({ names }) => (
          <ul>
            {names.map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ul>
        )}
      </ReplyView>
    </>
  );
}

afterEach(() => {
  cleanup();
});

describe("loading a reply", () => {
  it("shows the loading line until the reply comes, then the data", async () => {
    const server = fakeServer();
    render(<Names server={server} />);
    expect(screen.getByRole("status").textContent).toBe("Loading the guests...");
    await server.answer(["Anika", "Priya"]);
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Anika", "Priya"]);
  });

  it("says why it failed with Try again, which loads again and shows the data", async () => {
    const server = fakeServer();
    render(<Names server={server} />);
    await server.answer({ status: "error", message: "We couldn't load the guests." });
    expect(screen.getByRole("alert").textContent).toContain("We couldn't load the guests.");

    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(screen.getByRole("status").textContent).toBe("Loading the guests...");
    expect(screen.queryByRole("alert")).toBeNull();
    await server.answer(["Anika"]);
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Anika"]);
    expect(server.load).toHaveBeenCalledTimes(2);
  });

  it("says it could not reach the server when the call could not be made", async () => {
    const server = fakeServer();
    render(<Names server={server} />);
    await server.fail(new CallFailed(new TypeError("Failed to fetch")));
    expect(screen.getByRole("alert").textContent).toContain("You seem to be offline.");
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });

  it("says so when the reply holds nothing", async () => {
    const server = fakeServer();
    render(<Names server={server} />);
    await server.answer([]);
    expect(screen.getByText("Nobody yet.")).toBeTruthy();
    expect(screen.queryByRole("list")).toBeNull();
  });

  it("refreshes in place with no loading line, and keeps the list shown when a refresh fails", async () => {
    const server = fakeServer();
    render(<Names server={server} />);
    await server.answer(["Anika"]);

    fireEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Anika"]);
    await server.answer(["Anika", "Priya"]);
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Anika", "Priya"]);

    fireEvent.click(screen.getByRole("button", { name: "Refresh" }));
    await server.fail(new CallFailed(new TypeError("Failed to fetch")));
    fireEvent.click(screen.getByRole("button", { name: "Refresh" }));
    await server.answer({ status: "error", message: "We couldn't load the guests." });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Anika", "Priya"]);
  });

  it("shows the copy kept on the device when the network has none, and the error when there is no copy", async () => {
    const server = fakeServer();
    const kept: { value?: Shown } = { value: { status: "ready", names: ["Anika (saved)"] } };
    const cached = vi.fn(async () => kept.value);
    render(<Names server={server} cached={cached} />);
    await server.fail(new CallFailed(new TypeError("Failed to fetch")));
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Anika (saved)"]);
    expect(screen.queryByRole("alert")).toBeNull();

    kept.value = undefined;
    cleanup();
    render(<Names server={server} cached={cached} />);
    await server.fail(new CallFailed(new TypeError("Failed to fetch")));
    expect(screen.getByRole("alert").textContent).toContain("You seem to be offline.");
    expect(cached).toHaveBeenCalledTimes(2);
  });

  it("reads nothing without a key, and shows only the latest key's answer", async () => {
    const server = fakeServer();
    const { rerender } = render(<Names server={server} id={null} />);
    expect(screen.getByText("Choose an event.")).toBeTruthy();
    expect(server.load).not.toHaveBeenCalled();

    rerender(<Names server={server} id="7" />);
    rerender(<Names server={server} id="8" />);
    expect(server.waiting.map((w) => w.key)).toEqual(["7", "8"]);
    await server.answer(["From event 7"]);
    expect(screen.getByRole("status").textContent).toBe("Loading the guests...");
    await server.answer(["From event 8"]);
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["From event 8"]);
  });
});
