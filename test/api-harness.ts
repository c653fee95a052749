import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, expect } from "vitest";
import { createApp } from "../api/app.ts";
import { verifiedPhoneToken } from "../api/booking/booking-cookie.ts";
import { photoJobsOf } from "../api/booking/photo-jobs.ts";
import { type AppDeps, createAppDeps } from "../api/deps.ts";
import { parseEnv } from "../api/env.ts";
import type { Logger } from "../api/lib/log.ts";
import { REPLY_MISMATCH } from "../api/lib/openapi.ts";
import { openDatabase } from "../db/client.ts";

export type TestServer = {
  url: string;
  deps: AppDeps;
  /** Moves the server's clock; holds and codes expire by it. */
  advance(ms: number): void;
  /**
   * Waits for the photos the server is storing after its replies (a first save is answered once its
   * seat is held and its photo's header read; api/booking/photo-jobs.ts) and what follows them.
   */
  photosStored(): Promise<void>;
  /** Entries the app logged at level "error" (an unhandled error is a bug: a 5xx). */
  errors: { message: string; fields?: Record<string, unknown> }[];
  /**
   * Replies that did not match their route's declared schema (api/lib/openapi.ts): every suite
   * fails on any, so a reply field that drifts from the declaration fails the test that saw it.
   */
  replyMismatches: Record<string, unknown>[];
  /** Stops the server and deletes its files; a second call does nothing. */
  close(): Promise<void>;
};

export type TestServerOptions = {
  /** Configuration over the test defaults, as process.env would give it. */
  env?: Record<string, string>;
  /** Replaces dependencies (providers, the logger, the clock) built from the configuration. */
  deps?: (base: AppDeps) => Partial<AppDeps>;
  /**
   * Where to listen; "::" takes IPv4 and IPv6 (dual stack), so a suite can send from 127.0.0.x
   * and from ::1 to the same port. `url` stays on 127.0.0.1 either way.
   */
  hostname?: "127.0.0.1" | "::";
  /**
   * Whether an error the app logged fails the suite or test (default true: an unhandled error is a
   * 5xx). A test that provokes one on purpose turns this off and asserts `errors` itself.
   */
  expectNoErrors?: boolean;
};

/**
 * The real app on a real port with its own temporary SQLite file and uploads folder, so suites run
 * in parallel without sharing anything. Suites use `suiteTestServer` or `withTestServer`, which
 * also close it and check its errors; this is their building block.
 */
export async function startTestServer(options: Omit<TestServerOptions, "expectNoErrors"> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "sdt-api-"));
  const errors: TestServer["errors"] = [];
  const log: Logger = (level, message, fields) => {
    if (level === "error") errors.push({ message, fields });
  };
  let offset = 0;
  const now = () => Date.now() + offset;

  // The port is only known after listening; PUBLIC_BASE_URL is patched in once it is.
  const env = parseEnv({
    NODE_ENV: "test",
    DATABASE_PATH: join(dir, "app.db"),
    UPLOADS_DIR: join(dir, "uploads"),
    ADMIN_PASSWORD: "correct horse battery staple",
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
    SEED_DEMO: "0",
    ...options.env,
  });
  const db = openDatabase(env.DATABASE_PATH, { timeZone: env.EVENT_TIME_ZONE });
  const base = createAppDeps({ db, env, log, now });
  const chosen: AppDeps = { ...base, ...options.deps?.(base) };
  // Whatever logger a test chose, a reply that differs from its declaration is noted here too.
  const replyMismatches: Record<string, unknown>[] = [];
  const deps: AppDeps = {
    ...chosen,
    log: (level, message, fields) => {
      if (message === REPLY_MISMATCH) replyMismatches.push(fields ?? {});
      chosen.log(level, message, fields);
    },
  };
  const app = createApp(deps);

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: options.hostname ?? "127.0.0.1" }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (!options.env?.PUBLIC_BASE_URL) env.PUBLIC_BASE_URL = url;

  let closing: Promise<void> | undefined;
  return {
    url,
    deps,
    errors,
    replyMismatches,
    advance: (ms) => {
      offset += ms;
    },
    photosStored: () => photoJobsOf(deps.db).idle(),
    close: () => {
      closing ??= (async () => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        db.$client.close();
        rmSync(dir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/**
 * A server for the enclosing describe block (or the whole file, called at the top level): started
 * in its beforeAll, checked for logged errors and closed in its afterAll. The handle stands for the
 * server from the first hook or test on. Options given as a function are read when the server
 * starts, so they can use what an earlier hook started (a fake's URL, see `suiteFake`).
 */
export function suiteTestServer(options: TestServerOptions | (() => TestServerOptions) = {}): TestServer {
  let expectNoErrors: boolean | undefined;
  return suiteHandle(
    "the suite's server",
    () => {
      const { expectNoErrors: check, ...serverOptions } = typeof options === "function" ? options() : options;
      expectNoErrors = check;
      return startTestServer(serverOptions);
    },
    async (server) => {
      try {
        expect(server.replyMismatches, "replies that differ from their declared schema").toEqual([]);
        if (expectNoErrors !== false) expect(server.errors, "errors the app logged").toEqual([]);
      } finally {
        await server.close();
      }
    },
  );
}

/**
 * A server for one test, or one step of it: `fn` gets a fresh server, which is checked for logged
 * errors once `fn` is done and closed whatever happened. For a test that needs its own clock or
 * limits, a server that is broken on purpose, or a restart on the same database file.
 */
export async function withTestServer<T>(fn: (server: TestServer) => Promise<T>): Promise<T>;
export async function withTestServer<T>(options: TestServerOptions, fn: (server: TestServer) => Promise<T>): Promise<T>;
export async function withTestServer<T>(
  ...args: [fn: (server: TestServer) => Promise<T>] | [TestServerOptions, (server: TestServer) => Promise<T>]
): Promise<T> {
  const [options, fn] = args.length === 1 ? [{}, args[0]] : args;
  const { expectNoErrors, ...serverOptions } = options;
  const server = await startTestServer(serverOptions);
  try {
    const result = await fn(server);
    expect(server.replyMismatches, "replies that differ from their declared schema").toEqual([]);
    if (expectNoErrors !== false) expect(server.errors, "errors the app logged").toEqual([]);
    return result;
  } finally {
    await server.close();
  }
}

/**
 * A fake at the network edge (`startFakeStripe`, `startFakeTwilio`) for the enclosing describe
 * block, started in its beforeAll and closed in its afterAll. Declare it before the server that
 * points at it: before-hooks run in order and after-hooks in reverse, so the fake outlives it.
 */
export function suiteFake<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  return suiteHandle("the suite's fake", start, (fake) => fake.close());
}

/**
 * Starts something in the enclosing block's beforeAll and stops it in its afterAll, returning a
 * handle that forwards to it, so a block can name it at the top and use it from its hooks and tests.
 */
function suiteHandle<T extends object>(what: string, start: () => Promise<T>, stop: (it: T) => Promise<void>): T {
  let current: T | undefined;
  beforeAll(async () => {
    current = await start();
  });
  afterAll(async () => {
    // Nothing to stop when the start failed; its own error is the one reported.
    if (current) await stop(current);
  });
  const started = () => {
    if (!current) throw new Error(`${what} starts in beforeAll: use it from a hook or a test`);
    return current;
  };
  return new Proxy({} as T, {
    get: (_, key) => {
      const target = started();
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(started(), key, value),
  });
}

/** A tiny cookie-keeping client, one per simulated browser. */
export function browserClient(baseUrl: string) {
  const jar = new Map<string, string>();
  const request = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await fetch(baseUrl + path, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (!pair || eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  return {
    jar,
    request,
    get: (path: string) => request(path),
    postJson: (path: string, body: unknown) =>
      request(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    postForm: (path: string, form: FormData) => request(path, { method: "POST", body: form }),
  };
}

export type BrowserClient = ReturnType<typeof browserClient>;

/**
 * The Cookie header of a browser that proved it holds `phone`, signed as api/booking/booking-cookie.ts
 * signs it; for tests that hold a seat straight in the database and skip the OTP steps.
 */
export function verifiedPhoneCookie(env: { SESSION_SECRET: string }, phone: string, now = Date.now()): string {
  return `sdt_phone=${verifiedPhoneToken(env.SESSION_SECRET, phone, now + 30 * 24 * 60 * 60 * 1000)}`;
}

/** A browser that proved it holds `phone`: the signed cookie verify-otp would have set, without the OTP steps. */
export function verifiedPhoneBrowser(server: TestServer, phone: string): BrowserClient {
  const browser = browserClient(server.url);
  const cookie = verifiedPhoneCookie(server.deps.env, phone, server.deps.now());
  const eq = cookie.indexOf("=");
  browser.jar.set(cookie.slice(0, eq), cookie.slice(eq + 1));
  return browser;
}
