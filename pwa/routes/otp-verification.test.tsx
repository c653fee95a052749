// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OtpVerificationPage } from "./otp-verification.tsx";

// A booking step's event as the page shows it (docs/decisions/049-one-hook-for-a-reply.md): read
// through useReply, shown through ReplyView: the loading line, the error with **Try again** when
// get-event cannot be reached, and what Try again reads next.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a booking step's event", () => {
  it("says it loads, says when the event can't be read, and Try again reads it again", async () => {
    const calls: string[] = [];
    let reachable = false;
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string | URL | Request) => {
        calls.push(String(url instanceof Request ? url.url : url));
        if (!reachable) throw new TypeError("Failed to fetch");
        return Response.json({ success: false, error: "Event not found" }, { status: 404 });
      }),
    );
    render(
      <MemoryRouter initialEntries={["/otp-verification?eventID=5"]}>
        <Routes>
          <Route path="/otp-verification" element={<OtpVerificationPage />} />
        </Routes>
      </MemoryRouter>,
    );
    screen.getByText("Loading the event…");
    await screen.findByText("We couldn't load this event. Please check your connection and try again.");
    expect(calls.at(-1)).toMatch(/\/api\/get-event\/5$/);

    reachable = true;
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    screen.getByText("Loading the event…");
    await screen.findByText("Choose an event first: pick one from the list and press Book Tickets.");
    expect(calls.length).toBeGreaterThanOrEqual(2);
  });
});
