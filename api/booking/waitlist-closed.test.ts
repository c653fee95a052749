import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Event } from "../../db/schema.ts";
import { json, type Person, waitlistSuite } from "../../test/suites/waitlist.ts";
import { backgroundJobs } from "../ops/jobs.ts";
import { createScheduler, type Scheduler } from "../ops/scheduler.ts";

// The waitlist at the start (docs/decisions/015-balanced-rooms-and-waitlist.md): when sales close,
// by Start Event or by the start time passing, everyone still waiting is texted once, and the line is
// kept for the organiser (status `closed`, "Closed at the start") and the participants CSV.

const MINUTE = 60_000;
const suite = waitlistSuite();
const { server, paidSeats, person } = suite;

let scheduler: Scheduler;
beforeAll(() => {
  scheduler = createScheduler({ log: server.deps.log, now: server.deps.now }, backgroundJobs(server.deps));
});
afterAll(() => scheduler.stop());

const closedText = (name: string) =>
  `${name} is full tonight, so your place on the waitlist has closed. We'll let you know about the next one.`;

async function textsTo(phone: string, body: string) {
  const outbox = await json<{ to: string; body: string }[]>(await fetch(`${server.url}/api/dev/outbox`));
  return outbox.filter((m) => m.to === phone && m.body === body);
}

async function fullNightWithLine(name: string, startsIn: number) {
  const event = await suite.newEvent({ total: 2, male: 1, female: 1, startsIn, name });
  paidSeats(event.id, 1, "female");
  paidSeats(event.id, 1, "male");
  const waiting: Person[] = [person(), person(), person()];
  const genders = ["female", "male", "female"] as const;
  for (const [i, p] of waiting.entries()) {
    const body = { eventID: event.id, phone: p.phone, gender: genders[i], name: `Waiting ${i}` };
    expect((await p.browser.postJson("/api/join-waitlist", body)).status).toBe(200);
  }
  return { event, waiting };
}

const listed = async (event: Event) =>
  (
    await json<{ waitlist: { name: string; status: string; position: number; gender: string }[] }>(
      await suite.admin.get(`/api/admin-event/${event.id}/waitlist`),
    )
  ).waitlist;

describe("the waitlist when sales close", () => {
  it("texts everyone still waiting once at Start Event, and keeps them listed as closed", async () => {
    const { event, waiting } = await fullNightWithLine("Closing Mixer", 60 * MINUTE);
    expect((await suite.admin.postJson("/api/start-event", { eventId: event.id })).status).toBe(200);
    // Ticks (and a second scheduler, as after a restart) send nothing twice.
    await scheduler.tick();
    server.advance(2 * MINUTE);
    await scheduler.tick();
    const again = createScheduler({ log: server.deps.log, now: server.deps.now }, backgroundJobs(server.deps));
    await again.tick();
    again.stop();
    for (const p of waiting) {
      await expect.poll(async () => (await textsTo(p.phone, closedText("Closing Mixer"))).length).toBe(1);
    }
    expect(await listed(event)).toEqual([
      expect.objectContaining({ name: "Waiting 0", status: "closed", position: 1, gender: "female" }),
      expect.objectContaining({ name: "Waiting 1", status: "closed", position: 1, gender: "male" }),
      expect.objectContaining({ name: "Waiting 2", status: "closed", position: 2, gender: "female" }),
    ]);
    const csv = await (await suite.admin.get(`/api/admin-event/${event.id}/participants.csv`)).text();
    const rows = csv.split("\n").filter((line) => line.includes("waitlist (closed at the start)"));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^Waiting 0,,04\d\d \d{3} \d{3},female,,waitlist \(closed at the start\),/);
  });

  it("texts them once when the start time passes without Start Event (the scheduler)", async () => {
    const { event, waiting } = await fullNightWithLine("Clock Mixer", 10 * MINUTE);
    server.advance(11 * MINUTE);
    await scheduler.tick();
    await scheduler.tick();
    for (const p of waiting) {
      expect(await textsTo(p.phone, closedText("Clock Mixer"))).toHaveLength(1);
    }
    expect((await listed(event)).map((w) => w.status)).toEqual(["closed", "closed", "closed"]);
    // Starting it later texts nobody again.
    expect((await suite.admin.postJson("/api/start-event", { eventId: event.id })).status).toBe(200);
    await scheduler.tick();
    for (const p of waiting) {
      expect(await textsTo(p.phone, closedText("Clock Mixer"))).toHaveLength(1);
    }
  });

  it("leaves a cancelled night's line to the cancellation text alone", async () => {
    const { event, waiting } = await fullNightWithLine("Cancelled Mixer", 60 * MINUTE);
    expect((await suite.admin.postJson("/api/cancel-event", { eventId: event.id })).status).toBe(200);
    await scheduler.tick();
    for (const p of waiting) expect(await textsTo(p.phone, closedText("Cancelled Mixer"))).toEqual([]);
    expect(await listed(event)).toEqual([]);
  });
});
