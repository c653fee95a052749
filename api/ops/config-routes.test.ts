import { describe, expect, it } from "vitest";
import { suiteTestServer } from "../../test/api-harness.ts";

describe("GET /api/public-config", () => {
  const server = suiteTestServer({ env: { RETENTION_DAYS: "45" } });

  it("tells the privacy page how many days personal data is kept after an event", async () => {
    const reply = await fetch(`${server.url}/api/public-config`);
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({ retentionDays: 45, eventTimeZone: expect.any(String) });
  });
});
