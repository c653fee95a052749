import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, freePort, newContext, noBrowser, phone, startAppServer, waitUntil } from "./harness.ts";
import { expectAccessible } from "./page-checks.ts";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");

// The browser comes from the fixtures; the server is this suite's own: the test stops it and starts
// it again on the same port and data over a changed build, which is the deployment it is about.
const test = browserSuite();

describe.skipIf(noBrowser)("a new deployment", () => {
  let browser: Browser;
  let build: string;
  let data: string;
  let server: AppServer | undefined;

  test.beforeAll(async ({ browser: fileBrowser }) => {
    browser = fileBrowser;
    // A private copy of the build, so this suite can "deploy" a new version without touching dist/.
    build = mkdtempSync(join(tmpdir(), "sdt-build-"));
    cpSync(dist, build, { recursive: true });
    data = mkdtempSync(join(tmpdir(), "sdt-update-"));
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(build, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it("is offered with a Reload prompt, and Reload switches to it", async () => {
    const port = await freePort();
    const env = { PORT: String(port), PUBLIC_BASE_URL: `http://localhost:${port}`, STATIC_DIR: build };
    server = await startAppServer(env, data);
    // The harness's own url names another port: this suite fixes the port so the origin survives the restart.
    const { context, pageErrors } = await newContext(browser, env.PUBLIC_BASE_URL, {
      ...phone,
      serviceWorkers: "allow",
    });
    const page = await context.newPage();
    await page.goto("/");
    await page.locator("article.event-card").first().waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await waitUntil(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), "the first worker");
    // The first install is silent: nothing to reload into.
    expect(await page.getByRole("button", { name: "Reload" }).count()).toBe(0);
    // A later visit: the page opens under the installed worker, as a returning phone's would.
    await page.reload();
    await page.locator("article.event-card").first().waitFor();

    // Deploy: a changed service worker on the same origin (the server keeps the build in memory,
    // so it is restarted, as a deployment would).
    await server.stop();
    appendFileSync(join(build, "sw.js"), "\n// deployment 2\n");
    server = await startAppServer(env, data);
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.ready).update();
    });

    const reload = page.getByRole("button", { name: "Reload" });
    await reload.waitFor({ timeout: 30_000 });
    await page.getByText("A new version of the app is available.").waitFor();
    await expectAccessible(page, "the update prompt");
    const firstWorker = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    expect(firstWorker).toBeTruthy();

    await Promise.all([page.waitForEvent("load"), reload.click()]);
    await page.locator("article.event-card").first().waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Reload" }).count()).toBe(0);
    // The page is now controlled by the newly activated worker, and nothing is waiting.
    const waiting = await page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).waiting));
    expect(waiting).toBe(false);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
