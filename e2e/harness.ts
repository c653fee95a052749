import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type APIRequestContext, type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { REPLY_MISMATCH } from "../api/lib/openapi.ts";
import { ADULT_DATE_OF_BIRTH } from "../test/date-of-birth.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

/** Debian's Chromium, or CHROME_PATH. Never a downloaded browser. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((p): p is string => Boolean(p && existsSync(p)));
}

export const chromiumPath = findChromium();

/**
 * The browser the suites launch: Debian's headless build of the same Chromium
 * (`chromium-headless-shell`, the same Blink and V8 without the desktop browser around them, as
 * Playwright itself runs headless tests) when it is installed and CHROME_PATH does not choose, else
 * Chromium itself. On CI's two cores the browser phase took 591 s instead of 858 s with every test
 * the same (docs/decisions/061-ci-time.md). The installability check keeps the full browser
 * (launchProfileContext): only a browser that can install an app can say it would.
 */
const headlessPath = process.env.CHROME_PATH || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : chromiumPath);
if (!chromiumPath) {
  const line =
    "BROWSER TESTS SKIPPED: no Chromium found. Install it with `apt-get install -y chromium` or set CHROME_PATH.";
  if (process.env.REQUIRE_BROWSER === "1") throw new Error(`${line} (REQUIRE_BROWSER=1)`);
  console.warn(`\n${"!".repeat(line.length)}\n${line}\n${"!".repeat(line.length)}\n`);
}
/** `describe.skipIf(noBrowser)` in every browser suite. */
export const noBrowser = !chromiumPath;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export type AppServer = {
  url: string;
  dataDir: string;
  logs: string[];
  stop(): Promise<void>;
  kill(): Promise<void>;
  /** Sends a signal and returns at once (stop() waits for the exit and cleans up). */
  signal(signal: NodeJS.Signals): void;
  /** How the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** Options beyond the environment: `uid`/`gid` run the server as another user, as a container would. */
export type AppServerOptions = { uid?: number; gid?: number };

/**
 * Starts the server the way `npm start` does (after its build) on a free port with its own
 * temporary database, and waits until it listens.
 */
export async function startAppServer(
  env: Record<string, string> = {},
  dataDir?: string,
  options: AppServerOptions = {},
): Promise<AppServer> {
  if (!existsSync(join(root, "dist", "index.html")) || !existsSync(join(root, "build", "server.js"))) {
    throw new Error("dist/ or build/ is missing: run `npm run build` first");
  }
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "sdt-e2e-"));
  // A free port can be taken by another suite between asking and listening: then try another one
  // (unless the caller chose the port).
  for (let attempt = 1; ; attempt++) {
    const port = env.PORT ? Number(env.PORT) : await freePort();
    try {
      return await launch(env, dir, port, options, () => {
        if (!dataDir) rmSync(dir, { recursive: true, force: true });
      });
    } catch (error) {
      if (!(error instanceof PortTaken) || env.PORT || attempt >= 5) throw error;
    }
  }
}

class PortTaken extends Error {}

/**
 * libfaketime's settings when the suite runs under it (README, "Test it"): the server then reads the
 * same shifted clock as the suite and the browser, which inherit the environment.
 */
function fakedClock(): Record<string, string> {
  const faked = Object.entries(process.env).filter(([key]) => key === "LD_PRELOAD" || key.startsWith("FAKETIME"));
  return Object.fromEntries(faked.filter((entry): entry is [string, string] => entry[1] !== undefined));
}

async function launch(
  env: Record<string, string>,
  dir: string,
  port: number,
  options: AppServerOptions,
  cleanUp: () => void,
): Promise<AppServer> {
  const url = `http://localhost:${port}`;
  const logs: string[] = [];
  const child: ChildProcess = spawn(process.execPath, ["build/server.js"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "development",
      PORT: String(port),
      PUBLIC_BASE_URL: url,
      DATABASE_PATH: join(dir, "app.db"),
      UPLOADS_DIR: join(dir, "uploads"),
      ADMIN_PASSWORD: ORGANISER_PASSWORD,
      SESSION_SECRET: "e2e-secret-e2e-secret-e2e-secret-012345",
      ...fakedClock(),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    ...(options.uid === undefined ? {} : { uid: options.uid }),
    ...(options.gid === undefined ? {} : { gid: options.gid }),
  });
  const exitStatus = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const exited = exitStatus.then(() => undefined);
  await new Promise<void>((resolve, reject) => {
    // A start takes a second or two alone, and far longer on a machine shared with other suites.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join("")}`)), 90_000);
    const onData = (chunk: Buffer) => {
      logs.push(chunk.toString());
      if (chunk.toString().includes("listening on")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => logs.push(chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      const output = logs.join("");
      reject(
        output.includes("EADDRINUSE") ? new PortTaken(output) : new Error(`server exited with ${code}:\n${output}`),
      );
    });
  });
  const finish = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    dataDir: dir,
    logs,
    stop: async () => {
      await finish("SIGTERM");
      cleanUp();
      // The server runs in development, which checks every reply against its route's declaration
      // (api/lib/openapi.ts): a browser suite whose pages met a reply that differs fails too.
      const mismatches = logs
        .join("")
        .split("\n")
        .filter((line) => line.includes(REPLY_MISMATCH));
      if (mismatches.length > 0)
        throw new Error(`replies that differ from their declared schema:\n${mismatches.join("\n")}`);
    },
    kill: () => finish("SIGKILL"),
    signal: (signal) => {
      child.kill(signal);
    },
    exited: exitStatus,
  };
}

/**
 * The features Playwright turns off so that pages behave the same from run to run (its
 * chromiumSwitches, as of playwright-core 1.65). Chromium applies only the last `--disable-features`
 * switch, and ours comes after Playwright's, so ours names them all again with RenderDocument added:
 * Chromium 150 (Debian's since November 2026) gives each navigation a new document host, and the
 * offline emulation (context.setOffline) does not follow it there (a page opened offline read
 * navigator.onLine as true); without RenderDocument it holds across navigations again.
 * e2e/browser-flags.test.ts reads the switches back from the running browser and fails when a
 * Playwright upgrade turns off a feature this list lacks.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  // One renderer where Chromium can share one: a new tab's blank first page is then navigated in
  // place, and no spare renderer is started beside it for the next tab. Pages of different contexts
  // (each test's guest, organiser, stranger) never share a renderer, whatever the limit. A new page's
  // first load took about 15 % less of the two cores' time, and the browser phase 764 CPU-seconds
  // instead of 805 with every test the same (docs/decisions/066-ci-time-eighth-pass.md).
  "--renderer-process-limit=1",
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, "RenderDocument"].join(",")}`,
];

/** `extraArgs` add to the flags above (the door suite's fake camera, for one). */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!headlessPath) throw new Error("no Chromium");
  return chromium.launch({ executablePath: headlessPath, args: [...chromiumArgs, ...extraArgs] });
}

/**
 * A browser with a real profile on disk. Chrome never offers to install an app from an incognito
 * context (which every `browser.newContext()` is), so the installability check needs this.
 */
export async function launchProfileContext(baseURL: string, device = phone) {
  if (!chromiumPath) throw new Error("no Chromium");
  const userDataDir = mkdtempSync(join(tmpdir(), "sdt-profile-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    args: chromiumArgs,
    baseURL,
    ...device,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it returns true (for hooks, where expect.poll is not available). */
export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
export const desktop = { viewport: { width: 1366, height: 900 } };

/**
 * A context whose page errors and console errors are collected, so a test can assert none happened.
 *
 * The service worker is off unless the test turns it on (`{ ...phone, serviceWorkers: "allow" }`):
 * installed, it fetches and stores the whole app shell (90 files) in every new context, about a tenth
 * of the browser phase's CPU on CI's two cores. The tests of what the worker does (offline pages, the
 * queued taps, the update prompt, the cached pictures) turn it on; a screen's own behaviour is the
 * same without it, since the shell it would serve is the server's (docs/decisions/061-ci-time.md).
 */
export async function newContext(
  browser: Browser,
  baseURL: string,
  device: Parameters<Browser["newContext"]>[0] = phone,
) {
  const context: BrowserContext = await browser.newContext({ serviceWorkers: "block", ...device, baseURL });
  const pageErrors: string[] = [];
  context.on("page", (page: Page) => {
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    // A Content-Security-Policy refusal is a broken feature even when nothing throws.
    page.on("console", (message) => {
      if (message.type() === "error" && message.text().includes("Content Security Policy")) {
        pageErrors.push(message.text());
      }
    });
  });
  return { context, pageErrors };
}

/**
 * Calls a test makes beside its page, with the page's cookies: `callsOf(page.request).post(path, data)`.
 * Playwright's request client keeps an idle connection open with no timeout of its own, and the server
 * closes one idle for 5 s (Node's keep-alive timeout). A call sent on it as the server closes it fails
 * with ECONNRESET ("socket hang up") before the server has read a byte of it (nodejs/node#47130); on
 * two busy cores a test's pause between two calls lands near 5 s often enough to fail a run. Such a call
 * is sent again, on a new connection: Playwright retries that error and no other (`maxRetries`), and
 * browsers do the same for a request on a reused connection. e2e/calls-of.test.ts reproduces the race.
 */
export function callsOf(request: APIRequestContext) {
  const retried = { maxRetries: 2 };
  return {
    get: (path: string) => request.get(path, retried),
    post: (path: string, data: unknown) => request.post(path, { data, ...retried }),
  };
}

export type OutboxMessage = { to: string; body: string; createdAt: string };

/** What the console SMS provider has "sent" (GET /api/dev/outbox). */
export async function devOutbox(baseUrl: string): Promise<OutboxMessage[]> {
  return (await (await fetch(`${baseUrl}/api/dev/outbox`)).json()) as OutboxMessage[];
}

/** The last code texted to `e164`, or "" when none was. */
export async function codeFor(baseUrl: string, e164: string): Promise<string> {
  const body = (await devOutbox(baseUrl)).filter((m) => m.to === e164).at(-1)?.body ?? "";
  return body.match(/\b(\d{6})\b/)?.[1] ?? "";
}

/** The booking's phone and OTP steps, typed as a person would, until the details form shows. */
export async function verifyPhone(page: Page, baseUrl: string, typed: string, e164: string) {
  await page.getByLabel("Mobile number").fill(typed);
  await page.getByRole("button", { name: "Send OTP" }).click();
  await page.getByLabel("OTP", { exact: true }).waitFor();
  await page.getByLabel("OTP", { exact: true }).fill(await codeFor(baseUrl, e164));
  await page.getByRole("button", { name: "Verify OTP" }).click();
  await page.getByLabel("Name").waitFor();
}

/**
 * **Date of birth** on the details form: by default someone thirty, inside every fixture event's
 * ages (the server refuses a buyer outside the event's range).
 */
export async function fillDateOfBirth(page: Page, date = ADULT_DATE_OF_BIRTH) {
  await page.getByLabel("Date of birth").fill(date);
}

/** Fills every field of the booking's details form and ticks the box about who sees what (not submitted). */
export async function fillDetails(
  page: Page,
  person: { name: string; email: string; gender: "male" | "female"; photo: Buffer; dateOfBirth?: string },
) {
  await page.getByLabel("Name").fill(person.name);
  await page.getByLabel("Email", { exact: true }).fill(person.email);
  await page.getByLabel("Gender").selectOption(person.gender);
  await fillDateOfBirth(page, person.dateOfBirth);
  await page.getByLabel("Photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: person.photo });
  await page.getByLabel("I have read who sees my details").check();
}

/** The organiser's password on every server startAppServer starts. */
export const ORGANISER_PASSWORD = "e2e-admin-password";

/** Opens `path` (the admin panel by default) and signs in as the organiser; waits for the tabs. */
export async function signInAsOrganiser(page: Page, path = "/admin") {
  await page.goto(path);
  await submitOrganiserPassword(page);
  await page.getByRole("tablist").waitFor();
}

/** Types the organiser's password into the login dialog on the page and submits it. */
export async function submitOrganiserPassword(page: Page, password = ORGANISER_PASSWORD) {
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Submit" }).click();
}
