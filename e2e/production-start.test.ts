import { spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listBackups } from "../api/ops/backup-manifest.ts";
import { type FakeStripe, startFakeStripe } from "../test/fakes/stripe.ts";
import { type FakeTwilio, startFakeTwilio } from "../test/fakes/twilio.ts";
import { type AppServer, startAppServer, waitUntil } from "./harness.ts";

// No container engine runs here, so the image is never built in CI. This suite runs what the
// container would: the Dockerfile's runtime ENV (with /data moved to a temporary folder), its CMD,
// as a user other than root when the tests run as root, with production settings, and then its
// HEALTHCHECK command. The build steps (`npm ci`, `npm run build`) are the ones CI itself runs.

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const NOBODY = 65_534;

function readDockerfile() {
  const text = readFileSync(join(root, "Dockerfile"), "utf8").replace(/\\\n\s*/g, " ");
  const runtime = text.slice(text.lastIndexOf("\nFROM "));
  const env = Object.fromEntries(
    [...runtime.matchAll(/^ENV (\w+)=(\S*)$/gm)].map((m) => [m[1] as string, m[2] as string]),
  );
  const json = (pattern: RegExp) => JSON.parse(runtime.match(pattern)?.[1] ?? "null") as string[] | null;
  return {
    env,
    cmd: json(/^CMD (\[.*\])$/m),
    healthcheck: json(/^HEALTHCHECK .*?CMD (\[.*\])$/m),
    user: runtime.match(/^USER (\S+)$/m)?.[1],
    volume: json(/^VOLUME (\[.*\])$/m),
  };
}

/** Runs a Dockerfile exec-form command (["node", ...]) with this Node, and gives its exit code and stderr. */
function runWithStderr(command: string[], env: Record<string, string>) {
  const [program, ...args] = command;
  expect(program).toBe("node");
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, stderr })),
  );
}

const run = async (command: string[], env: Record<string, string>) => (await runWithStderr(command, env)).code;

/**
 * Whether `uid` can start the server from this checkout: load a package from its node_modules
 * (wherever that link points), read the compiled server and the built PWA, and write the data folder.
 * A clone under a folder other users cannot enter (a home folder such as /root, a `mktemp -d` folder)
 * fails this, and a server started as that user would only die with "Cannot find package".
 */
function canStartAs(uid: number, dataDir: string) {
  const check = [
    "const { accessSync, constants: c } = require('node:fs');",
    "require('hono');",
    `for (const f of ${JSON.stringify(["package.json", "build/server.js", "dist/index.html"])}) accessSync(f, c.R_OK);`,
    `accessSync(${JSON.stringify(dataDir)}, c.W_OK | c.X_OK);`,
  ].join("\n");
  const child = spawn(process.execPath, ["-e", check], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "" },
    stdio: "ignore",
    uid,
    gid: uid,
  });
  return new Promise<boolean>((resolve) => {
    child.once("error", () => resolve(false));
    child.once("close", (code) => resolve(code === 0));
  });
}

// Its own processes, not the `server` fixture (e2e/fixtures.ts): the production start (its environment,
// its user, its health check) is the subject, so each test starts and stops the process itself.
describe("the production start, as the container runs it", () => {
  const dockerfile = readDockerfile();
  let dataDir: string;
  let stripe: FakeStripe;
  let twilio: FakeTwilio;
  let server: AppServer | undefined;

  beforeAll(async () => {
    [stripe, twilio] = await Promise.all([startFakeStripe(), startFakeTwilio()]);
    dataDir = mkdtempSync(join(tmpdir(), "sdt-production-"));
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([stripe.close(), twilio.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs `npm run serve`'s command with the data under one volume, as a non-root user", () => {
    const serve = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> })
      .scripts.serve;
    expect(dockerfile.cmd?.join(" ")).toBe(serve);
    expect(dockerfile.env).toMatchObject({ NODE_ENV: "production", SEED_DEMO: "0" });
    for (const name of ["DATABASE_PATH", "UPLOADS_DIR", "BACKUP_DIR"]) {
      expect(dockerfile.env[name], name).toMatch(/^\/data\//);
    }
    expect(dockerfile.volume).toEqual(["/data"]);
    expect(dockerfile.user).toBeDefined();
    expect(["root", "0"]).not.toContain(dockerfile.user);
  });

  it("refuses to start with production settings missing, naming each variable on its own line", async () => {
    const env = { ...dockerfile.env, DATABASE_PATH: join(dataDir, "refused", "app.db"), ADMIN_PASSWORD: "too short" };
    const { code, stderr } = await runWithStderr(dockerfile.cmd ?? [], env);
    expect(code).toBe(1);
    const lines = stderr.split("\n").filter((line) => line.startsWith("Configuration error: "));
    for (const name of ["ADMIN_PASSWORD", "PUBLIC_BASE_URL", "SESSION_SECRET", "STRIPE_SECRET_KEY", "SMTP_URL"]) {
      expect(
        lines.filter((line) => line.startsWith(`Configuration error: ${name}: `)),
        name,
      ).toHaveLength(1);
    }
    expect(existsSync(join(dataDir, "refused", "app.db"))).toBe(false);
  });

  it("starts in production, answers /healthz and the HEALTHCHECK, backs up, and stops cleanly", async () => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(dockerfile.env)) {
      // The harness picks a free port; everything under /data goes to the temporary folder instead.
      if (name !== "PORT") env[name] = value.replace(/^\/data(?=\/|$)/, dataDir);
    }
    Object.assign(env, {
      ADMIN_PASSWORD: "a long production password",
      SESSION_SECRET: "production-secret-production-secret-0123",
      STRIPE_SECRET_KEY: "sk_test_fake",
      STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
      STRIPE_WEBHOOK_SECRET: "whsec_fake",
      STRIPE_API_BASE: stripe.url,
      TWILIO_ACCOUNT_SID: `AC${"1a".repeat(16)}`,
      TWILIO_AUTH_TOKEN: "fake-auth-token-0123456789",
      TWILIO_VERIFY_SERVICE_SID: `VA${"2b".repeat(16)}`,
      TWILIO_FROM: "+61400000000",
      TWILIO_API_BASE: twilio.url,
      // Never reached here: nodemailer connects only to send, and nothing is sent in this walk.
      SMTP_URL: "smtp://mailer:secret@127.0.0.1:2525",
      MAIL_FROM: "Speed Dating <tickets@example.com>",
    });
    // As root here, run as nobody: the app must need no write outside its data folder. Only where
    // nobody can read this checkout; otherwise the server runs as root, and says so.
    let asNobody = process.getuid?.() === 0;
    if (asNobody) {
      chownSync(dataDir, NOBODY, NOBODY);
      asNobody = await canStartAs(NOBODY, dataDir);
      if (!asNobody) {
        console.info(
          `production start runs as root, not nobody: user ${NOBODY} cannot read ${root} or its node_modules ` +
            "(a parent folder is closed to other users); run from a checkout others can read to check the drop",
        );
      }
    }
    server = await startAppServer(env, dataDir, asNobody ? { uid: NOBODY, gid: NOBODY } : {});

    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    // The database was made by the user the server ran as.
    expect(statSync(join(dataDir, "app.db")).uid).toBe(asNobody ? NOBODY : process.getuid?.());
    const port = new URL(server.url).port;
    expect(await run(dockerfile.healthcheck ?? [], { PORT: port })).toBe(0);

    // The built PWA is served, and nothing of the development providers exists.
    const home = await fetch(`${server.url}/`, { headers: { accept: "text/html" } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<div id="root">');
    expect((await fetch(`${server.url}/api/dev/outbox`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/dev/mailbox`)).status).toBe(404);
    expect(server.logs.join("")).toMatch(/"payments":"stripe","sms":"twilio","mail":"smtp"/);

    // BACKUP_DIR is set in the image: the scheduler's first run writes one.
    const backups = join(dataDir, "backups");
    await waitUntil(async () => (await listBackups(backups)).length === 1, "the first scheduled backup");

    server.signal("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dataDir, "app.db-wal"))).toBe(false);
    // With the server gone, the same HEALTHCHECK reports it.
    expect(await run(dockerfile.healthcheck ?? [], { PORT: port })).toBe(1);
  });
});
