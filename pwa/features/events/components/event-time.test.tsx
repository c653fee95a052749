// @vitest-environment happy-dom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { pinClock } from "../../../../test/clock.ts";
import { EventTime } from "./event-time.tsx";

// An event's time as a card shows it: the lines the server wrote (`startsAtText`), so the home page
// builds no Intl formatter (bench/README.md, "What holds `/` under 98"), or, for an event kept on the
// phone from before the server sent them, the same lines worked out here.

// A pinned clock (test/clock.ts): the dates below never meet the real one.
pinClock(Date.UTC(2031, 10, 1));
afterEach(cleanup);

const lines = (container: HTMLElement) =>
  [...container.querySelectorAll(".event-local-time, .event-utc-time")].map((e) => e.textContent);

// 8:00 AM UTC on Saturday 29 November 2031 is 7:00 PM in Sydney (daylight saving).
const iso = "2031-11-29T08:00:00.000Z";

describe("an event's time", () => {
  it("shows the server's lines as they are, the weekday first on a card", () => {
    const text = { weekday: "Sat", local: "2031-11-29 07:00 PM AEDT", utc: "2031-11-29 08:00 AM UTC" };
    const card = render(<EventTime iso={iso} zone="Australia/Sydney" text={text} weekday />);
    expect(lines(card.container)).toEqual(["Sat 2031-11-29 07:00 PM AEDT", "2031-11-29 08:00 AM UTC"]);
    cleanup();
    const summary = render(<EventTime iso={iso} zone="Australia/Sydney" text={text} />);
    expect(lines(summary.container)).toEqual(["2031-11-29 07:00 PM AEDT", "2031-11-29 08:00 AM UTC"]);
    cleanup();
    // As they are: whatever the server wrote, the phone does not write it again.
    const other = render(<EventTime iso={iso} zone="Australia/Sydney" text={{ ...text, local: "7 pm, Saturday" }} />);
    expect(lines(other.container)).toEqual(["7 pm, Saturday", "2031-11-29 08:00 AM UTC"]);
  });

  it("works the same lines out on the phone for an event kept without them", () => {
    const card = render(<EventTime iso={iso} zone="Australia/Sydney" text={undefined} weekday />);
    expect(lines(card.container)).toEqual(["Sat 2031-11-29 07:00 PM AEDT", "2031-11-29 08:00 AM UTC"]);
  });
});
