import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { events } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { makeImage } from "../../test/fixtures.ts";

// The cancellation policy on each event (docs/decisions/028-cancellation-money-path.md): set on Add
// (save-event) and Edit (update-event), the defaults when left out, clear 400s for what cannot be a
// policy, and carried by the event replies.

const PASSWORD = "correct horse battery staple";
const DAY = 24 * 3_600_000;
const server = suiteTestServer();
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const eventDate = () => new Date(server.deps.now() + 10 * DAY).toISOString().slice(0, 10);

async function saveEvent(extra: Record<string, string> = {}) {
  const form = new FormData();
  const fields = {
    eventName: "Policy Night",
    eventDate: eventDate(),
    eventTime: "19:30",
    eventAddress: "1 Macquarie St, Sydney NSW 2000",
    totalSeats: "24",
    bookingAmount: "45",
    eventduration: "2",
    fromage: "25",
    toage: "35",
    ...extra,
  };
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("eventImage", new Blob([new Uint8Array(await makeImage("png"))], { type: "image/png" }), "p.png");
  const response = await admin.postForm("/api/save-event", form);
  return { status: response.status, body: (await response.json()) as { id?: number; error?: string; code?: string } };
}

const policyOf = async (id: number) => {
  const response = await fetch(`${server.url}/api/get-event/${id}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { cancellationPolicy: unknown }).cancellationPolicy;
};

describe("an event's cancellation policy", () => {
  it("defaults to a full refund until 48 hours before, then none, and the replies carry it", async () => {
    const saved = await saveEvent();
    expect(saved.status).toBe(200);
    expect(await policyOf(saved.body.id as number)).toEqual({ fullRefundHours: 48, laterPercent: 0 });
    const listed = (await (await fetch(`${server.url}/api/get-events`)).json()) as {
      id: number;
      cancellationPolicy: unknown;
    }[];
    expect(listed.find((e) => e.id === saved.body.id)?.cancellationPolicy).toEqual({
      fullRefundHours: 48,
      laterPercent: 0,
    });
  });

  it("is set on Add and changed on Edit; a field left out on Edit is kept", async () => {
    const saved = await saveEvent({ cancelFullRefundHours: "72", cancelLaterPercent: "25" });
    expect(saved.status).toBe(200);
    const id = saved.body.id as number;
    expect(await policyOf(id)).toEqual({ fullRefundHours: 72, laterPercent: 25 });
    const base = { eventid: id, eventName: "Policy Night", eventDate: eventDate(), totalSeats: 24 };
    expect((await admin.postJson("/api/update-event", { ...base, cancelLaterPercent: 50 })).status).toBe(200);
    expect(await policyOf(id)).toEqual({ fullRefundHours: 72, laterPercent: 50 });
    expect((await admin.postJson("/api/update-event", { ...base, cancelFullRefundHours: 0 })).status).toBe(200);
    expect(await policyOf(id)).toEqual({ fullRefundHours: 0, laterPercent: 50 });
  });

  it("refuses what cannot be a policy with a 400 naming the field, and changes nothing", async () => {
    const saved = await saveEvent({ cancelFullRefundHours: "24", cancelLaterPercent: "10" });
    const id = saved.body.id as number;
    const base = { eventid: id, eventName: "Policy Night", eventDate: eventDate(), totalSeats: 24 };
    const bad: Record<string, unknown>[] = [
      { cancelFullRefundHours: -1 },
      { cancelFullRefundHours: 721 },
      { cancelFullRefundHours: 1.5 },
      { cancelFullRefundHours: "soon" },
      { cancelLaterPercent: -5 },
      { cancelLaterPercent: 101 },
      { cancelLaterPercent: 12.5 },
    ];
    for (const fields of bad) {
      const response = await admin.postJson("/api/update-event", { ...base, ...fields });
      const body = (await response.json()) as { error: string; code: string };
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(body.code).toBe("invalid_request");
      expect(body.error).toMatch(
        "cancelFullRefundHours" in fields
          ? /^The hours before the start with a full refund /
          : /^The refund percentage after that /,
      );
    }
    const added = await saveEvent({ cancelLaterPercent: "150" });
    expect(added.status).toBe(400);
    expect(added.body.error).toMatch(/^The refund percentage after that /);
    const row = server.deps.db.select().from(events).where(eq(events.id, id)).get();
    expect(row).toMatchObject({ cancelFullRefundHours: 24, cancelLaterPercent: 10 });
  });
});
