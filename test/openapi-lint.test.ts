import { createConfig, lintFromString, type NormalizedProblem } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { suiteTestServer } from "./api-harness.ts";

// The served document passes a maintained OpenAPI linter (Redocly's) with its `recommended` rules
// and no error, so a client generator or a gateway can take it as it is (issue 47, part 2). Its
// warnings (no licence: the project has none; optional fields without examples and the like) are
// advice, not errors, and are not counted here.

/** A problem as one line: its rule, where, and what. */
const line = (problem: NormalizedProblem) => {
  const where = [problem.location].flat()[0]?.pointer ?? "";
  return `${problem.ruleId}: ${where}: ${problem.message}`;
};

async function lint(document: unknown) {
  const config = await createConfig({ extends: ["recommended"] });
  return lintFromString({ source: JSON.stringify(document), absoluteRef: "openapi.json", config });
}

describe("/api/openapi.json and Redocly's recommended rules", () => {
  const server = suiteTestServer();

  it("has no errors", async () => {
    const reply = await fetch(`${server.url}/api/openapi.json`);
    expect(reply.status).toBe(200);
    const problems = await lint(await reply.json());
    expect(problems.filter((p) => p.severity === "error").map(line)).toEqual([]);
  });

  it("reports a document's errors, so a pass means something", async () => {
    const broken = {
      openapi: "3.1.0",
      info: { title: "x", version: "1" },
      paths: { "/api/x": { get: { responses: { 200: { description: "OK" } } } } },
    };
    const errors = (await lint(broken)).filter((p) => p.severity === "error").map((p) => p.ruleId);
    expect(errors).toEqual(expect.arrayContaining(["operation-summary", "security-defined", "no-empty-servers"]));
  });
});
