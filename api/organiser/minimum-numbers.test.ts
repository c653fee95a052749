import { beforeAll, describe, expect, it } from "vitest";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { makeImage } from "../../test/fixtures.ts";

// Go ahead only with at least and the no-match promise on Add (save-event) and Edit (update-event)
// (issue 52): women and men at Women meet men, people at one pool, decided by default 48 hours before
// the start; clear 400s naming the field for what cannot be one, with nothing changed; the organiser's
// reply carries the counts, the public replies only the promise.

const PASSWORD = "correct horse battery staple";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const server = suiteTestServer();
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

// A field the form leaves out: a one-pool night sends no seats per side.
const OMIT = "(left out)";
const onePool = { seatsMale: OMIT, seatsFemale: OMIT };

const eventDate = () => new Date(server.deps.now() + 10 * DAY).toISOString().slice(0, 10);

async function saveEvent(extra: Record<string, string> = {}) {
  const form = new FormData();
  const fields = {
    eventName: "Numbers Night",
    eventDate: eventDate(),
    eventTime: "9:30",
    eventAddress: "1 Macquarie St, Sydney NSW 2000",
    totalSeats: "20",
    seatsMale: "10",
    seatsFemale: "10",
    bookingAmount: "45",
    eventduration: "2",
    fromage: "25",
    toage: "35",
    ...extra,
  };
  for (const [key, value] of Object.entries(fields)) if (value !== OMIT) form.append(key, value);
  form.append("eventImage", new Blob([new Uint8Array(await makeImage("png"))], { type: "image/png" }), "p.png");
  const response = await admin.postForm("/api/save-event", form);
  return { status: response.status, body: (await response.json()) as { id?: number; error?: string } };
}

type AdminEvent = {
  startsAt: string;
  minimumFemale: number | null;
  minimumMale: number | null;
  minimumTotal: number | null;
  minimumBy: string | null;
  noMatchPromise: boolean;
};
const adminEvent = async (id: number) => {
  const response = await admin.get(`/api/admin-event/${id}`);
  expect(response.status).toBe(200);
  const e = (await response.json()) as AdminEvent & { EventDateTime: string };
  return { ...e, startsAt: e.EventDateTime };
};
const publicEvent = async (id: number) => (await (await fetch(`${server.url}/api/get-event/${id}`)).json()) as object;

describe("Go ahead only with at least, on Add and Edit", () => {
  it("is off by default, and the public replies say nothing of it", async () => {
    const saved = await saveEvent();
    expect(saved.status).toBe(200);
    const id = saved.body.id as number;
    expect(await adminEvent(id)).toMatchObject({
      minimumFemale: null,
      minimumMale: null,
      minimumTotal: null,
      minimumBy: null,
      noMatchPromise: false,
    });
    const shown = await publicEvent(id);
    expect(shown).toMatchObject({ noMatchPromise: false });
    expect(Object.keys(shown).filter((k) => k.startsWith("minimum"))).toEqual([]);
  });

  it("takes women and men at Women meet men, decided 48 hours before the start unless a time is given", async () => {
    const saved = await saveEvent({ minimumFemale: "6", minimumMale: "7", noMatchPromise: "1" });
    expect(saved.status).toBe(200);
    const id = saved.body.id as number;
    const event = await adminEvent(id);
    expect(event).toMatchObject({ minimumFemale: 6, minimumMale: 7, minimumTotal: null, noMatchPromise: true });
    expect(Date.parse(event.startsAt) - Date.parse(event.minimumBy as string)).toBe(48 * HOUR);
    expect(await publicEvent(id)).toMatchObject({ noMatchPromise: true });
    const listed = (await (await admin.get("/api/admin-events")).json()) as ({ id: number } & AdminEvent)[];
    expect(listed.find((e) => e.id === id)).toMatchObject({ minimumFemale: 6, minimumMale: 7 });

    // Edit: a time of its own; a count left out is kept; null turns it off; the promise can be withdrawn.
    const by = new Date(Date.parse(event.startsAt) - 72 * HOUR).toISOString();
    const base = { eventid: id, eventName: "Numbers Night", eventDate: eventDate(), totalSeats: 20 };
    const edited = await admin.postJson("/api/update-event", { ...base, minimumMale: 5, minimumBy: by });
    expect(edited.status).toBe(200);
    expect(await adminEvent(id)).toMatchObject({ minimumFemale: 6, minimumMale: 5, minimumBy: by });
    const off = { ...base, minimumFemale: null, minimumMale: null, noMatchPromise: false };
    expect((await admin.postJson("/api/update-event", off)).status).toBe(200);
    expect(await adminEvent(id)).toMatchObject({ minimumFemale: null, minimumMale: null, minimumBy: null });
    expect(await publicEvent(id)).toMatchObject({ noMatchPromise: false });
  });

  it("takes people in all at a one-pool night", async () => {
    const saved = await saveEvent({ format: "one_group", ...onePool, minimumTotal: "12" });
    expect(saved.status).toBe(200);
    expect(await adminEvent(saved.body.id as number)).toMatchObject({ minimumTotal: 12, minimumFemale: null });
  });

  it("refuses what cannot be a minimum with a 400 naming the field, and changes nothing", async () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ minimumTotal: "10" }, /minimumTotal/],
      [{ format: "one_group", ...onePool, minimumMale: "4" }, /minimumFemale, minimumMale/],
      [{ minimumFemale: "11" }, /minimumFemale: can't be more than the 10 seats/],
      [{ minimumMale: "0" }, /minimum ?male/i],
      [{ minimumMale: "2.5" }, /minimum ?male/i],
      [{ minimumMale: "many" }, /minimum ?male/i],
      [
        { minimumFemale: "3", minimumBy: new Date(server.deps.now() + 30 * DAY).toISOString() },
        /minimumBy: the numbers are decided no later than the start/,
      ],
      [{ noMatchPromise: "yes" }, /no ?match ?promise/i],
    ];
    const before = ((await (await admin.get("/api/admin-events")).json()) as unknown[]).length;
    for (const [extra, named] of bad) {
      const saved = await saveEvent(extra);
      expect(saved.status, JSON.stringify(extra)).toBe(400);
      expect(saved.body.error, JSON.stringify(extra)).toMatch(named);
    }
    expect(((await (await admin.get("/api/admin-events")).json()) as unknown[]).length).toBe(before);

    const saved = await saveEvent({ minimumFemale: "4", minimumMale: "4" });
    const id = saved.body.id as number;
    const base = { eventid: id, eventName: "Numbers Night", eventDate: eventDate(), totalSeats: 20 };
    for (const extra of [{ minimumTotal: 8 }, { minimumMale: 11 }, { minimumMale: -1 }, { noMatchPromise: "1" }]) {
      const reply = await admin.postJson("/api/update-event", { ...base, ...extra });
      expect(reply.status, JSON.stringify(extra)).toBe(400);
    }
    expect(await adminEvent(id)).toMatchObject({ minimumFemale: 4, minimumMale: 4, minimumTotal: null });
  });
});
