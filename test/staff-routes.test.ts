import { beforeAll, describe, expect, it } from "vitest";
import { type BrowserClient, browserClient, suiteTestServer } from "./api-harness.ts";
import { callRoute, hostAccessHelpers, json, PASSWORD, staffCallBody } from "./suites/host-access.ts";

// A host's event scope is declared once per route (staffRoute in api/lib/staff.ts, issue 47 part 5):
// the walk reads the staff calls from the OpenAPI document (each declares `admin_session_required`
// and `host_access_ended`, which only requireStaff answers together), so a staff call added later
// is walked without touching this file, and a host of another event must get 403 from every one.

const server = suiteTestServer();
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const { night, newLink, hostPhone } = hostAccessHelpers(server, () => admin);

type Operation = { responses?: Record<string, { description?: string }> };
type Document = { paths: Record<string, Record<string, Operation>> };

/** The staff calls the document declares, as `GET /api/admin-event/:id/roster`. */
async function staffCalls(): Promise<string[]> {
  const document = await json<Document>(await admin.get("/api/openapi.json"));
  const calls: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const said = Object.values(operation.responses ?? {}).map((r) => r.description ?? "");
      // Both guards' codes together: host-login and host-session declare only a host's.
      const declares = ["`admin_session_required`", "`host_access_ended`"].every((code) =>
        said.some((d) => d.includes(code)),
      );
      const route = `/api${path.replace(/^\/api/, "")}`.replace(/\{(\w+)\}/g, ":$1");
      if (declares) calls.push(`${method.toUpperCase()} ${route}`);
    }
  }
  return calls.sort();
}

describe("a host's event scope", () => {
  it("answers 403 to a host of another event on every staff call of the OpenAPI document", async () => {
    const ours = await night(2, "Our Night");
    const theirs = await night(2, "Their Night");
    const { phone } = await hostPhone(await newLink(ours.event.id));
    const body = staffCallBody(
      theirs.event.id,
      [theirs.attendees[0]!.userId, theirs.attendees[1]!.userId],
      server.deps.now(),
    );

    const calls = await staffCalls();
    // The walk saw the door, the rounds, the room's stream and the paper cards (these stand for the rest).
    expect(calls).toEqual(
      expect.arrayContaining([
        "GET /api/admin-event/:id/roster",
        "POST /api/check-in",
        "POST /api/open-doors",
        "GET /api/admin-event/:id/rounds",
        "POST /api/run-rounds",
        "GET /api/round-events",
        "GET /api/admin-event/:id/ratings",
        "POST /api/admin-save-feedback",
        "POST /api/message-guests",
      ]),
    );
    expect(calls.length).toBeGreaterThanOrEqual(14);

    const answers: Record<string, string> = {};
    for (const call of calls) {
      const response = await callRoute(phone, call, theirs.event.id, body);
      answers[call] = `${response.status} ${(await json(response)).code}`;
    }
    expect(answers).toEqual(Object.fromEntries(calls.map((call) => [call, "403 forbidden"])));
  });

  it("lets the host of the event through the same calls, past the scope", async () => {
    const ours = await night(2, "Our Night");
    const { phone } = await hostPhone(await newLink(ours.event.id));
    const body = staffCallBody(
      ours.event.id,
      [ours.attendees[0]!.userId, ours.attendees[1]!.userId],
      server.deps.now(),
    );
    for (const call of await staffCalls()) {
      const response = await callRoute(phone, call, ours.event.id, body);
      const isJson = response.headers.get("content-type")?.startsWith("application/json") ?? false;
      // The room's stream never ends by itself: let it go, as a phone closing the page would.
      if (!isJson) await response.body?.cancel();
      const code = isJson ? (await json(response)).code : null;
      expect([response.status, code], call).not.toEqual([403, "forbidden"]);
    }
  });
});
