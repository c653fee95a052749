// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EventList, PickableEvent } from "../../../components/ui/event-picker.tsx";
import { useAdminStore } from "../../../lib/admin-store.ts";
import type { RoundsPerson, RoundsState } from "../rounds-api.ts";
import { RoundsConsole } from "./rounds-console.tsx";

const person = (userID: number, username: string, gender: "male" | "female"): RoundsPerson => ({
  userID,
  username,
  gender,
  image_name: `${username}.jpg`,
  left: false,
  arrivedAt: "2026-11-29T19:30:00.000Z",
  age: null,
});

/**
 * The rounds API at the network edge: it keeps one event's state, plans a plain rotation of who is
 * present (women seated) and runs the clock on the real time, as the server would. `offline` fails
 * every call as a dropped connection would; `started` false answers plan-rounds 409 as an event
 * not started yet does.
 */
function fakeServer() {
  const server = {
    offline: false,
    started: true,
    /** What the ratings call answers: how many have rated everyone they met, of how many. */
    rated: { done: 0, total: 0 },
    /** Keep apart marks, as "a-b" with the lower id first. */
    apart: [] as [number, number][],
    requests: [] as { url: string; body?: Record<string, unknown> }[],
    state: {
      eventStatus: "started",
      status: "none",
      settings: { roundMinutes: 5, breakMinutes: 1, maxRounds: null, seated: "female" },
      current: null,
      phase: null,
      phaseEndsAt: null,
      serverNow: new Date(0).toISOString(),
      format: "women_men",
      present: { female: 2, male: 2 },
      presentTotal: 4,
      rounds: [],
      people: [
        person(1, "Anika", "female"),
        person(2, "Priya", "female"),
        person(11, "Dev", "male"),
        person(12, "Arjun", "male"),
      ],
      arrivals: [],
      metBefore: [],
      announcement: null,
    } as RoundsState,
  };
  const s = () => server.state;
  const endIn = (ms: number) => new Date(Date.now() + ms).toISOString();
  const present = (g: "female" | "male") => s().people.filter((p) => p.gender === g && !p.left);
  const plan = () => {
    const women = present("female");
    const men = present("male");
    const total = Math.max(women.length, men.length);
    s().rounds = Array.from({ length: total }, (_, r) => ({
      round: r + 1,
      pairs: women.flatMap((w, t) => {
        const m = men[(t + r) % total];
        return m ? [{ table: t + 1, femaleID: w.userID, maleID: m.userID }] : [];
      }),
      sitOut: [],
    }));
    s().present = { female: women.length, male: men.length };
    s().arrivals = [];
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
      // The results card below the rounds (pwa/features/results) reads the ratings; nobody has rated yet.
      if (url.endsWith("/ratings")) {
        const ratings = { resultsAt: "2026-11-30T01:00:00.000Z", released: false, ratings: server.rated };
        return Response.json({ ...ratings, people: [] });
      }
      if (server.offline) throw new TypeError("Failed to fetch");
      // The event itself, for Start Event and End Event beside the rounds.
      if (url === "/api/admin-event/7") {
        return Response.json({
          id: 7,
          event_name: "Harbour Mixer",
          EventDateTime: "2026-11-29T19:00:00.000Z",
          time_zone: "Australia/Sydney",
          event_status: s().eventStatus,
        });
      }
      // The End dialog counts the paid guests (the Edit tab's own confirmation, reused).
      if (url === "/api/admin-event-summary/7") return Response.json({ error: "not in this fake" }, { status: 404 });
      // Message guests: the counts come from the server.
      if (url === "/api/admin-event/7/message-guests") {
        return Response.json({
          eventName: "Harbour Mixer",
          counts: { all: 5, arrived: 4, not_arrived: 1 },
          sentLastHour: 1,
          perHour: 5,
          open: true,
        });
      }
      // Keep apart: the organiser's card, the pairs marked and the guests.
      const keepApart = () => {
        const name = (id: number) => s().people.find((p) => p.userID === id)?.username ?? "";
        return {
          pairs: server.apart.map(([a, b]) => ({ userIDs: [a, b], names: [name(a), name(b)] })),
          guests: s().people.map((p) => ({ userID: p.userID, username: p.username, gender: p.gender })),
        };
      };
      if (url === "/api/admin-event/7/keep-apart") return Response.json(keepApart());
      server.requests.push({ url, body });
      if (url === "/api/keep-apart") {
        const [a, b] = [...((body?.userIDs ?? []) as number[])].sort((x, y) => x - y) as [number, number];
        server.apart = server.apart.filter(([x, y]) => x !== a || y !== b);
        if (body?.apart) server.apart.push([a, b]);
        // As the server: a plan seating them together is re-planned (here: the two swap partners).
        const together = s().rounds.some((r) =>
          r.pairs.some((p) => [a, b].includes(p.femaleID) && [a, b].includes(p.maleID)),
        );
        if (body?.apart && together)
          for (const r of s().rounds) {
            const [p, q] = r.pairs;
            if (p && q) [p.maleID, q.maleID] = [q.maleID, p.maleID];
          }
        return Response.json({ ...keepApart(), replanned: Boolean(body?.apart && together) });
      }
      if (url === "/api/message-guests") {
        const counts = { all: 5, arrived: 4, not_arrived: 1 } as Record<string, number>;
        return Response.json({ sent: counts[String(body?.to)] ?? 0, failed: 0 });
      }
      if (url === "/api/plan-rounds") {
        if (!server.started) {
          return Response.json(
            { success: false, error: "the event has not started", code: "wrong_state" },
            { status: 409 },
          );
        }
        if (body?.preview) {
          // What the plan would be, storing nothing.
          const kept = structuredClone(server.state);
          plan();
          const would = { ...s(), serverNow: new Date().toISOString() };
          server.state = kept;
          return Response.json(would);
        }
        Object.assign(s().settings, { ...body, eventID: undefined });
        delete (s().settings as Record<string, unknown>).eventID;
        plan();
        if (s().status === "none") s().status = "planned";
      } else if (url === "/api/run-rounds") {
        const action = body?.action;
        // As the server: a press for a round or phase the clock has left changes nothing.
        if (body?.current !== s().current || body?.phase !== s().phase) {
          return Response.json(
            { success: false, error: "the rounds have moved on", code: "stale_state" },
            { status: 409 },
          );
        }
        if (action === "start")
          Object.assign(s(), { status: "running", current: 1, phase: "round", phaseEndsAt: endIn(300_000) });
        if (action === "pause") s().status = "paused";
        if (action === "resume" && s().status === "finished") {
          Object.assign(s(), { status: "running", phase: "round", phaseEndsAt: endIn(300_000) });
        } else if (action === "resume") s().status = "running";
        if (action === "extend") s().phaseEndsAt = new Date(Date.parse(String(s().phaseEndsAt)) + 60_000).toISOString();
        if (action === "next") {
          if (s().phase === "round") Object.assign(s(), { phase: "break", phaseEndsAt: endIn(60_000) });
          else Object.assign(s(), { phase: "round", current: (s().current ?? 0) + 1, phaseEndsAt: endIn(300_000) });
        }
        if (action === "finish") Object.assign(s(), { status: "finished", phase: null, phaseEndsAt: null });
      } else if (url === "/api/mark-left") {
        const p = s().people.find((x) => x.userID === body?.userID);
        if (p) p.left = Boolean(body?.left);
        s().present = { female: present("female").length, male: present("male").length };
      }
      return Response.json({ ...s(), serverNow: new Date().toISOString() });
    }),
  );
  return server;
}

const tonight = {
  id: 7,
  name: "Harbour Mixer",
  startsAt: "2026-11-29T19:00:00.000Z",
  timeZone: "Australia/Sydney",
  status: "started",
} as unknown as PickableEvent;
const events = { state: { status: "ready", events: [tonight] }, reload: async () => {} } as EventList;

function setOnline(online: boolean) {
  Object.defineProperty(navigator, "onLine", { value: online, configurable: true });
  window.dispatchEvent(new Event(online ? "online" : "offline"));
}

/** The organiser's tab: the event picked lives in the address, here in the wrapper's state. */
function Organiser() {
  const [eventId, setEventId] = useState<number | null>(null);
  return <RoundsConsole events={events} eventId={eventId} onPick={setEventId} />;
}

async function openTonight() {
  render(<Organiser />);
  fireEvent.change(screen.getByLabelText("Event"), { target: { value: "7" } });
  await screen.findByRole("heading", { name: "Present: 2 women, 2 men" });
}

const button = (name: string) => screen.getByRole("button", { name }) as HTMLButtonElement;
const lastAction = (server: ReturnType<typeof fakeServer>) =>
  server.requests.filter((r) => r.url === "/api/run-rounds").at(-1)?.body;

beforeEach(() => {
  useAdminStore.setState({ status: "unlocked" });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "onLine");
});

describe("the host's Rounds console", () => {
  it("plans from who is present and shows the plan as round × table with names", async () => {
    const server = fakeServer();
    await openTonight();
    const present = screen.getByRole("region", { name: "Present: 2 women, 2 men" });
    expect(
      within(present)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["AnikaLeft", "PriyaLeft", "ArjunLeft", "DevLeft"]);
    fireEvent.change(screen.getByLabelText("Round minutes"), { target: { value: "7" } });
    fireEvent.click(screen.getByLabelText("Men"));
    fireEvent.click(button("Plan rounds"));

    const plan = await screen.findByRole("table", { name: /Plan: rounds by table/ });
    expect(server.requests.find((r) => r.url === "/api/plan-rounds")?.body).toEqual({
      eventID: 7,
      roundMinutes: 7,
      breakMinutes: 1,
      maxRounds: null,
      seated: "male",
    });
    expect(
      within(plan)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["Round", "Table 1", "Table 2", "Sitting out"]);
    const firstRound = within(plan).getAllByRole("row")[1]!;
    expect(
      within(firstRound)
        .getAllByRole("cell")
        .map((td) => td.textContent),
    ).toEqual(["DevAnika", "ArjunPriya", ""]);
    expect(screen.getByRole("heading", { name: "2 rounds planned" })).toBeTruthy();
    expect(button("Re-plan rounds")).toBeTruthy();
  });

  it("starts the rounds, shows the round and the time left, and sends each control", async () => {
    const server = fakeServer();
    await openTonight();
    fireEvent.click(button("Plan rounds"));
    fireEvent.click(await screen.findByRole("button", { name: "Start rounds" }));
    await screen.findByRole("heading", { name: "Round 1 of 2" });
    expect(["5:00", "4:59"]).toContain(screen.getByRole("timer").textContent);

    fireEvent.click(button("+1 min"));
    await waitFor(() => expect(["6:00", "5:59"]).toContain(screen.getByRole("timer").textContent));
    fireEvent.click(button("Pause"));
    await screen.findByText("Paused");
    fireEvent.click(button("Resume"));
    await screen.findByText("Round in progress");
    fireEvent.click(button("Next"));
    await screen.findByText("Changeover: movers change tables");
    expect(["1:00", "0:59"]).toContain(screen.getByRole("timer").textContent);
    fireEvent.click(button("Next"));
    await screen.findByRole("heading", { name: "Round 2 of 2" });
    // Each press says what the screen showed, so a second press of the same Next is refused.
    expect(lastAction(server)).toEqual({ eventID: 7, action: "next", current: 1, phase: "break" });

    // Finishing is asked twice: a stray tap must not end the night.
    fireEvent.click(button("Finish rounds"));
    const dialog = await screen.findByRole("dialog", { name: "Finish the rounds?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Finish rounds" }));
    await screen.findByRole("heading", { name: "The rounds are finished" });
    expect(server.requests.filter((r) => r.url === "/api/run-rounds").map((r) => r.body?.action)).toEqual([
      "start",
      "extend",
      "pause",
      "resume",
      "next",
      "next",
      "finish",
    ]);

    // A Next pressed once too often is not the end of the night: Resume brings the last round back.
    fireEvent.click(button("Resume"));
    await screen.findByRole("heading", { name: "Round 2 of 2" });
    expect(lastAction(server)).toEqual({ eventID: 7, action: "resume", current: 2, phase: null });
  });

  it("a press the server finds stale changes nothing, says so, and shows where the rounds are now", async () => {
    const server = fakeServer();
    await openTonight();
    fireEvent.click(button("Plan rounds"));
    fireEvent.click(await screen.findByRole("button", { name: "Start rounds" }));
    await screen.findByRole("heading", { name: "Round 1 of 2" });
    // Another phone moved the night on before this console's next poll.
    Object.assign(server.state, { phase: "break" });
    fireEvent.click(button("Next"));
    expect((await screen.findByRole("alert")).textContent).toContain("The rounds had already moved on");
    await screen.findByText("Changeover: movers change tables");
    expect(server.state).toMatchObject({ current: 1, phase: "break" });
  });

  it("offers no Resume once the event has ended: the night is read-only", async () => {
    const server = fakeServer();
    await openTonight();
    fireEvent.click(button("Plan rounds"));
    fireEvent.click(await screen.findByRole("button", { name: "Start rounds" }));
    await screen.findByRole("heading", { name: "Round 1 of 2" });
    Object.assign(server.state, { status: "finished", phase: null, phaseEndsAt: null, eventStatus: "ended" });
    await screen.findByRole("heading", { name: "The rounds are finished" }, { timeout: 5_000 });
    expect(screen.queryByRole("button", { name: "Resume" })).toBeNull();
  });

  it("has Start Event and End Event beside the rounds, with the Edit tab's confirmation", async () => {
    const server = fakeServer();
    await openTonight();
    expect(((await screen.findByRole("button", { name: "Start Event" })) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(button("End Event").disabled).toBe(false));
    expect(screen.queryByRole("button", { name: "Cancel event" })).toBeNull();
    fireEvent.click(button("End Event"));
    const dialog = await screen.findByRole("dialog", { name: "End Harbour Mixer?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Go back" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(server.requests.some((r) => r.url === "/api/end-event")).toBe(false);
  });

  it("Message guests shows the server's counts and the exact text, then sends it once", async () => {
    const server = fakeServer();
    await openTonight();
    fireEvent.click(button("Message guests"));
    const dialog = await screen.findByRole("dialog", { name: "Message guests" });
    fireEvent.click(await within(dialog).findByLabelText("Only those who came (4)"));
    fireEvent.change(within(dialog).getByLabelText("Message"), { target: { value: "  Running 15 minutes late " } });
    expect(within(dialog).getByText("Texts 4 guests:")).toBeTruthy();
    expect(within(dialog).getByText("Harbour Mixer: Running 15 minutes late")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Send to 4 guests" }));
    await within(dialog).findByText("Sent to 4 guests.");
    const sent = server.requests.filter((r) => r.url === "/api/message-guests");
    expect(sent).toEqual([
      {
        url: "/api/message-guests",
        body: { eventID: 7, to: "arrived", text: "Running 15 minutes late", messageID: expect.stringMatching(/^msg-/) },
      },
    ]);
    expect(within(dialog).queryByRole("button", { name: /^Send/ })).toBeNull();
  });

  it("warns before a re-plan that adds rounds where fewer than half meet, and suggests Max rounds", async () => {
    const server = fakeServer();
    await openTonight();
    fireEvent.click(button("Plan rounds"));
    fireEvent.click(await screen.findByRole("button", { name: "Start rounds" }));
    await screen.findByRole("heading", { name: "Round 1 of 2" });
    // Five more men arrive late: 2 women and 7 men, so every added round seats 4 of 9.
    for (const [i, name] of ["Kiran", "Omar", "Ravi", "Sunil", "Tom"].entries()) {
      server.state.people.push(person(20 + i, name, "male"));
    }
    server.state.present = { female: 2, male: 7 };
    fireEvent.click(button("Re-plan rounds"));
    const dialog = await screen.findByRole("dialog", { name: "Re-plan with rounds where few meet?" });
    expect(dialog.textContent).toContain("Rounds 3 to 7 would pair fewer than half of the 9 people present");
    expect(dialog.textContent).toContain("Max rounds 2 stops before them");
    fireEvent.click(within(dialog).getByRole("button", { name: "Go back" }));
    await waitFor(() => expect((screen.getByLabelText("Max rounds") as HTMLInputElement).value).toBe("2"));
    expect(server.state.rounds).toHaveLength(2);
    // Re-planned with the suggestion: no warning, and the plan keeps its 2 rounds.
    fireEvent.click(button("Re-plan rounds"));
    await waitFor(() => expect(server.requests.at(-1)?.body).toMatchObject({ maxRounds: 2 }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("marks someone who went home with Left, and new arrivals until the host re-plans", async () => {
    const server = fakeServer();
    await openTonight();
    fireEvent.click(button("Plan rounds"));
    await screen.findByRole("button", { name: "Start rounds" });
    server.state.people.push(person(13, "Kiran", "male"));
    server.state.arrivals = [13];
    server.state.present = { female: 2, male: 3 };

    fireEvent.click(screen.getByRole("button", { name: "Left", description: "Dev" }));
    // The heading said 2 women, 2 men before the tap too: wait for the answer's own change.
    await screen.findByRole("heading", { name: "Went home" });
    await screen.findByRole("heading", { name: "Present: 2 women, 2 men" });
    expect(server.requests.at(-1)).toEqual({ url: "/api/mark-left", body: { eventID: 7, userID: 11, left: true } });
    expect(screen.getByText("1 new arrival since the plan: Re-plan rounds to seat them.")).toBeTruthy();
    expect(screen.getByText("New")).toBeTruthy();
    const gone = screen.getByRole("button", { name: "Left", description: "Dev" });
    expect(gone.getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("heading", { name: "Went home" })).toBeTruthy();

    fireEvent.click(button("Re-plan rounds"));
    await waitFor(() => expect(screen.queryByText("New")).toBeNull());
    expect(screen.getAllByRole("cell").some((td) => td.textContent?.includes("Kiran"))).toBe(true);
  });

  it("offline: says so, holds the controls back, and the timer keeps running", async () => {
    const server = fakeServer();
    await openTonight();
    fireEvent.click(button("Plan rounds"));
    fireEvent.click(await screen.findByRole("button", { name: "Start rounds" }));
    await screen.findByRole("heading", { name: "Round 1 of 2" });

    server.offline = true;
    setOnline(false);
    await screen.findByText("You're offline: the controls need the network. The timer keeps running.");
    for (const name of ["Pause", "+1 min", "Next", "Finish rounds", "Re-plan rounds"]) {
      expect(button(name).disabled).toBe(true);
    }
    const shown = screen.getByRole("timer").textContent;
    await waitFor(() => expect(screen.getByRole("timer").textContent).not.toBe(shown), { timeout: 2_500 });

    server.offline = false;
    setOnline(true);
    await waitFor(() => expect(button("Pause").disabled).toBe(false));
    expect(screen.queryByText(/You're offline/)).toBeNull();
  });

  it("says what to do when the event has not started, and checks the settings before sending", async () => {
    const server = fakeServer();
    server.started = false;
    await openTonight();
    fireEvent.change(screen.getByLabelText("Round minutes"), { target: { value: "45" } });
    fireEvent.click(button("Plan rounds"));
    expect(await screen.findByText("From 1 to 30 minutes.")).toBeTruthy();
    expect(screen.getByLabelText("Round minutes").getAttribute("aria-invalid")).toBe("true");
    expect(server.requests.some((r) => r.url === "/api/plan-rounds")).toBe(false);

    fireEvent.change(screen.getByLabelText("Round minutes"), { target: { value: "5" } });
    fireEvent.click(button("Plan rounds"));
    const alert = await screen.findByRole("alert");
    // Start Event is on this tab, at its top (issue 46): the message names it where it is.
    expect(alert.textContent).toContain(
      "Start the event first (Start Event, at the top of this tab): the rounds are planned from who checked in.",
    );
    expect(alert.textContent).not.toContain("Overview");
    const start = await screen.findByRole("button", { name: "Start Event" });
    expect(start.compareDocumentPosition(button("Plan rounds")) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("tells a host, whose tab has no Start Event, that the organiser starts the event", async () => {
    const server = fakeServer();
    server.started = false;
    render(<RoundsConsole fixedEvent={{ id: 7, timeZone: "Australia/Sydney" }} />);
    await screen.findByRole("heading", { name: "Present: 2 women, 2 men" });
    fireEvent.click(button("Plan rounds"));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(
      "The organiser starts the event first (Start Event on their Rounds tab): the rounds are planned from who checked in.",
    );
    expect(screen.queryByRole("button", { name: "Start Event" })).toBeNull();
  });

  // Issue 46, item 8: the count follows the room's stream like the rest of the tab.
  it("updates Ratings: 2 of 7 done when the room's stream says ratings arrived, without a reload", async () => {
    const streams: FakeEventSource[] = [];
    class FakeEventSource extends EventTarget {
      static readonly CLOSED = 2;
      readyState = 1;
      onerror: (() => void) | null = null;
      constructor(readonly url: string) {
        super();
        streams.push(this);
      }
      close() {
        this.readyState = 2;
      }
      /** The server's message, as the browser hands it over. */
      say(change: string) {
        const data = JSON.stringify({
          change,
          status: "planned",
          current: null,
          phase: null,
          phaseEndsAt: null,
          serverNow: new Date().toISOString(),
          announcement: null,
        });
        this.dispatchEvent(new MessageEvent("rounds", { data }));
      }
    }
    vi.stubGlobal("EventSource", FakeEventSource);
    const server = fakeServer();
    server.rated = { done: 2, total: 7 };
    await openTonight();
    await screen.findByText("Ratings: 2 of 7 done");
    const stream = streams.find((s) => s.url === "/api/round-events?eventID=7" && s.readyState !== 2)!;
    expect(stream).toBeTruthy();
    server.rated = { done: 7, total: 7 };
    const roundsCalls = () => server.requests.filter((r) => r.url === "/api/admin-event/7/rounds").length;
    const before = roundsCalls();
    stream.say("ratings");
    await screen.findByText("Ratings: 7 of 7 done");
    // Only the ratings are read again: the rounds did not change.
    expect(roundsCalls()).toBe(before);
  });

  it("Full screen shows only the round and the time, and Escape leaves it", async () => {
    fakeServer();
    await openTonight();
    fireEvent.click(button("Plan rounds"));
    fireEvent.click(await screen.findByRole("button", { name: "Start rounds" }));
    await screen.findByRole("heading", { name: "Round 1 of 2" });
    fireEvent.click(button("Full screen"));
    const clock = await screen.findByRole("dialog", { name: "Round clock" });
    expect(clock.textContent).toMatch(/^Round 1 of 2[45]:\d\dLeave full screen$/);
    // Escape on a modal dialog is the browser's "cancel".
    fireEvent(clock, new Event("cancel", { cancelable: true }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("Keep apart: the organiser marks two guests, sees the plan re-planned without them together, and undoes it", async () => {
    const server = fakeServer();
    await openTonight();
    fireEvent.click(button("Plan rounds"));
    const plan = await screen.findByRole("table", { name: /Plan: rounds by table/ });
    expect(within(plan).getAllByRole("row")[1]!.textContent).toContain("AnikaDev");
    const card = screen.getByRole("region", { name: "Keep apart" });
    await within(card).findByText("Nobody is kept apart.");
    // Nothing chosen: said so, nothing sent.
    fireEvent.click(within(card).getByRole("button", { name: "Keep apart" }));
    expect((await within(card).findByRole("alert")).textContent).toBe("Choose two guests.");
    fireEvent.change(within(card).getByLabelText("Guest"), { target: { value: "1" } });
    // The second list leaves out the guest already chosen.
    const second = within(card).getByLabelText("Keep apart from") as HTMLSelectElement;
    expect([...second.options].map((o) => o.textContent)).toEqual([
      "Choose a guest",
      "Priya (woman)",
      "Dev (man)",
      "Arjun (man)",
    ]);
    fireEvent.change(second, { target: { value: "11" } });
    fireEvent.click(within(card).getByRole("button", { name: "Keep apart" }));
    await within(card).findByText("Anika and Dev");
    expect(server.requests.find((r) => r.url === "/api/keep-apart")?.body).toEqual({
      eventID: 7,
      userIDs: [1, 11],
      apart: true,
    });
    // The re-planned rounds show at once, not at the next poll.
    await waitFor(() => expect(within(plan).getAllByRole("row")[1]!.textContent).not.toContain("AnikaDev"));

    fireEvent.click(within(card).getByRole("button", { name: "Undo: let Anika and Dev be seated together" }));
    await within(card).findByText("Nobody is kept apart.");
    expect(server.requests.filter((r) => r.url === "/api/keep-apart").at(-1)?.body).toEqual({
      eventID: 7,
      userIDs: [1, 11],
      apart: false,
    });
  });

  it("says how many pairs met at an earlier night, and marks where they sit", async () => {
    const server = fakeServer();
    await openTonight();
    fireEvent.click(button("Plan rounds"));
    await screen.findByRole("table", { name: /Plan: rounds by table/ });
    expect(screen.queryByText(/met at an earlier night/)).toBeNull();
    server.state.metBefore = [{ round: 1, table: 1 }];
    fireEvent.click(button("Re-plan rounds"));
    const note = await screen.findByText(/^1 pair met at an earlier night\./);
    expect(note.getAttribute("role")).toBe("status");
    const plan = screen.getByRole("table", { name: /Plan: rounds by table/ });
    expect(within(plan).getAllByText("Met before")).toHaveLength(1);
    server.state.metBefore = [
      { round: 1, table: 1 },
      { round: 2, table: 2 },
    ];
    fireEvent.click(button("Re-plan rounds"));
    await screen.findByText(/^2 pairs met at an earlier night\./);
  });

  it("shows a host's phone no Keep apart", async () => {
    fakeServer();
    render(<RoundsConsole fixedEvent={{ id: 7, timeZone: "Australia/Sydney" }} />);
    await screen.findByRole("heading", { name: "Present: 2 women, 2 men" });
    expect(screen.queryByRole("region", { name: "Keep apart" })).toBeNull();
  });

  it("says when the rounds can't be read, with Try again, which shows the loading line and then the rounds", async () => {
    const server = fakeServer();
    server.offline = true;
    render(<Organiser />);
    fireEvent.change(screen.getByLabelText("Event"), { target: { value: "7" } });
    screen.getByText("Loading the rounds...");
    const alert = (await screen.findByText("Couldn't reach the server to load the rounds.")).closest("[role=alert]");
    expect(alert).not.toBeNull();
    expect(screen.queryByRole("button", { name: "Plan rounds" })).toBeNull();

    server.offline = false;
    fireEvent.click(within(alert as HTMLElement).getByRole("button", { name: "Try again" }));
    screen.getByText("Loading the rounds...");
    await screen.findByRole("heading", { name: "Present: 2 women, 2 men" });
    expect(screen.queryByText("Couldn't reach the server to load the rounds.")).toBeNull();
    expect(screen.queryByText(/Can't reach the server/)).toBeNull();
  });

  it("never lets a read sent before a tap undo the tap's answer", async () => {
    const server = fakeServer();
    await openTonight();
    fireEvent.click(button("Plan rounds"));
    fireEvent.click(await screen.findByRole("button", { name: "Start rounds" }));
    await screen.findByRole("heading", { name: "Round 1 of 2" });
    // From here each read of the rounds is slow: it answers, when let go, the rounds as they stood when sent.
    const real = vi.mocked(fetch).getMockImplementation()!;
    const held: (() => void)[] = [];
    vi.mocked(fetch).mockImplementation(async (url, init) => {
      if (String(url) !== "/api/admin-event/7/rounds") return real(String(url), init);
      const body: unknown = await (await real(String(url), init)).json();
      await new Promise<void>((resolve) => held.push(resolve));
      return { ok: true, status: 200, headers: new Headers(), json: async () => body } as Response;
    });
    window.dispatchEvent(new Event("online")); // the console reads again, in place
    await waitFor(() => expect(held.length).toBeGreaterThan(0));
    fireEvent.click(button("Next"));
    await screen.findByText("Changeover: movers change tables");

    // The read answers after the tap: its older round is dropped, the tap's answer stays.
    await act(async () => {
      for (const release of held) release();
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(screen.getByText("Changeover: movers change tables")).toBeTruthy();
    expect(screen.queryByText("Round in progress")).toBeNull();
    expect(server.state.phase).toBe("break");
  });

  it("follows the server between taps: a round the server moved on shows within a poll", async () => {
    const server = fakeServer();
    render(<Organiser />);
    fireEvent.change(screen.getByLabelText("Event"), { target: { value: "7" } });
    fireEvent.click(await screen.findByRole("button", { name: "Plan rounds" }));
    fireEvent.click(await screen.findByRole("button", { name: "Start rounds" }));
    await screen.findByRole("heading", { name: "Round 1 of 2" });
    // Nothing tapped: the console's own poll (every 3 s) brings the server's new round.
    Object.assign(server.state, { current: 2 });
    await screen.findByRole("heading", { name: "Round 2 of 2" }, { timeout: 5_000 });
  });
});
