// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NOT_FOUND, RouteError } from "./route-error.tsx";
import { ErrorFallback } from "./router.tsx";

afterEach(cleanup);

function Broken(): never {
  throw new Error("the page broke");
}

describe("the router's fallback", () => {
  it("shows the heading, the message and the stack of a page that throws, until the address changes", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { rerender } = render(
      <ErrorFallback pathname="/tickets">
        <Broken />
      </ErrorFallback>,
    );
    expect(screen.getByRole("heading", { name: "Unexpected Application Error!" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "the page broke" })).toBeTruthy();
    expect(document.querySelector(".route-error-stack")?.textContent).toContain("Broken");

    rerender(
      <ErrorFallback pathname="/">
        <p>Home again</p>
      </ErrorFallback>,
    );
    expect(screen.getByText("Home again")).toBeTruthy();
    expect(screen.queryByText("Unexpected Application Error!")).toBeNull();
    vi.restoreAllMocks();
  });

  it("says 404 Not Found for an unknown address", () => {
    render(<RouteError error={NOT_FOUND} />);
    expect(screen.getByRole("heading", { name: "404 Not Found" })).toBeTruthy();
  });
});
