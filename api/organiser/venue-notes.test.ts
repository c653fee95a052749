import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { events } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, makeImage } from "../../test/fixtures.ts";

// Venue notes (issue 47, part 3; docs/decisions/044-one-name-per-field.md): an optional line of at
// most 200 characters, `venueNotes` on save-event (multipart) and update-event (JSON), `venue_notes`
// on get-event and get-events, null when empty.

const PASSWORD = "correct horse battery staple";
const DAY = 86_400_000;
const NOTES = "Enter via Level 1, ask for the Saathi table";

const server = suiteTestServer();
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);

async function eventForm(extra: Record<string, string>) {
  const form = new FormData();
  const fields: Record<string, string> = {
    eventName: "Notes Night",
    eventDate: inDays(10),
    eventTime: "19:30",
    eventAddress: "1 Macquarie St, Sydney NSW 2000",
    totalSeats: "24",
    bookingAmount: "49.95",
    eventduration: "2.5",
    fromage: "25",
    toage: "35",
    ...extra,
  };
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("eventImage", new Blob([new Uint8Array(await makeImage("png"))], { type: "image/png" }), "photo.png");
  return form;
}

const detail = async (id: number) =>
  (await fetch(`${server.url}/api/get-event/${id}`)).json() as Promise<Record<string, unknown>>;
const listed = async (id: number) => {
  const list = (await (await fetch(`${server.url}/api/get-events`)).json()) as Record<string, unknown>[];
  return list.find((e) => e.id === id);
};
const stored = (id: number) => server.deps.db.select().from(events).where(eq(events.id, id)).get();

describe("venue notes", () => {
  it("are set by save-event's venueNotes and shown as venue_notes by get-event and get-events", async () => {
    const response = await admin.postForm("/api/save-event", await eventForm({ venueNotes: `  ${NOTES} ` }));
    expect(response.status).toBe(200);
    const { id } = (await response.json()) as { id: number };
    expect(await detail(id)).toMatchObject({ venue_notes: NOTES, event_address: "1 Macquarie St, Sydney NSW 2000" });
    expect(await listed(id)).toMatchObject({ venue_notes: NOTES });
  });

  it("are null when save-event leaves them out or empty", async () => {
    const extras: Record<string, string>[] = [{}, { venueNotes: "" }, { venueNotes: "   " }];
    for (const extra of extras) {
      const response = await admin.postForm("/api/save-event", await eventForm(extra));
      expect(response.status).toBe(200);
      const { id } = (await response.json()) as { id: number };
      expect((await detail(id)).venue_notes).toBeNull();
      expect((await listed(id))?.venue_notes).toBeNull();
    }
  });

  it("are changed by update-event's venueNotes, kept when left out, and cleared by null or empty", async () => {
    const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { startsAt: Date.now() + 9 * DAY });
    const required = { eventid: event.id, eventName: event.name, eventDate: inDays(9), totalSeats: 10 };
    const update = (extra: Record<string, unknown>) => admin.postJson("/api/update-event", { ...required, ...extra });
    expect((await update({ venueNotes: NOTES })).status).toBe(200);
    expect((await detail(event.id)).venue_notes).toBe(NOTES);
    expect((await update({})).status).toBe(200);
    expect((await detail(event.id)).venue_notes).toBe(NOTES);
    expect((await update({ venueNotes: "Level 2 now" })).status).toBe(200);
    expect(await listed(event.id)).toMatchObject({ venue_notes: "Level 2 now" });
    expect((await update({ venueNotes: null })).status).toBe(200);
    expect((await detail(event.id)).venue_notes).toBeNull();
    expect((await update({ venueNotes: "Back again" })).status).toBe(200);
    expect((await update({ venueNotes: "" })).status).toBe(200);
    expect((await detail(event.id)).venue_notes).toBeNull();
  });

  it("take 200 characters and refuse 201 with 400, changing nothing", async () => {
    const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { startsAt: Date.now() + 9 * DAY });
    const required = { eventid: event.id, eventName: event.name, eventDate: inDays(9), totalSeats: 10 };
    expect((await admin.postJson("/api/update-event", { ...required, venueNotes: "a".repeat(200) })).status).toBe(200);
    const before = stored(event.id);
    const tooLong = await admin.postJson("/api/update-event", {
      ...required,
      eventName: "Changed",
      venueNotes: "b".repeat(201),
    });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ success: false, error: expect.stringMatching(/venue notes/i) });
    expect(stored(event.id)).toEqual(before);

    const count = server.deps.db.select().from(events).all().length;
    const newTooLong = await admin.postForm("/api/save-event", await eventForm({ venueNotes: "c".repeat(201) }));
    expect(newTooLong.status).toBe(400);
    expect(server.deps.db.select().from(events).all()).toHaveLength(count);
  });

  it.each([
    ["a line break", "Level 1\nask for Saathi"],
    ["a NUL", "Level 1\u0000"],
    ["an invisible direction character", "Level 1 \u202Eelbat"],
  ])("refuse %s with 400, on save-event and update-event", async (_, notes) => {
    const count = server.deps.db.select().from(events).all().length;
    const created = await admin.postForm("/api/save-event", await eventForm({ venueNotes: notes }));
    expect(created.status).toBe(400);
    expect(server.deps.db.select().from(events).all()).toHaveLength(count);

    const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { startsAt: Date.now() + 9 * DAY });
    const before = stored(event.id);
    const updated = await admin.postJson("/api/update-event", {
      eventid: event.id,
      eventName: event.name,
      eventDate: inDays(9),
      totalSeats: 10,
      venueNotes: notes,
    });
    expect(updated.status).toBe(400);
    expect(stored(event.id)).toEqual(before);
  });
});
