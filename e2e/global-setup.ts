import type { TestProject } from "vitest/node";
import { chromiumPath, launchBrowserServer } from "./harness.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's shared Chromium (empty when there is none): see e2e/fixtures.ts, `browser`. */
    chromiumEndpoint: string;
  }
}

// One Chromium for the whole browser run: launching one per suite cost 1–4 s each (more on two busy
// cores, docs/decisions/048-browser-fixtures.md). Suites connect to it and get contexts of their own;
// a suite that needs other flags (browserSuite's browserArgs) still launches its own.
export default async function setup(project: TestProject) {
  if (!chromiumPath) {
    project.provide("chromiumEndpoint", "");
    return;
  }
  const server = await launchBrowserServer();
  project.provide("chromiumEndpoint", server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
