import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Dependencies flow one way: common/ (pure code both sides run) ← db/ ← api/, and common/ ← pwa/.
// The PWA may read the API's types (the typed client is built from them) but never runs its code,
// which would pull server modules, and possibly secrets, into the phone's bundle.

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
type Area = "api" | "common" | "db" | "pwa" | "other";

const areaOf = (path: string): Area => {
  const top = relative(root, path).split(/[\\/]/)[0];
  return top === "api" || top === "common" || top === "db" || top === "pwa" ? top : "other";
};

// Every import and re-export, static or dynamic, with whether it brings types only.
const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

type Violation = { file: string; specifier: string; rule: string };

/** What `source`, the text of `file`, imports against the rules above. */
function forbiddenImports(file: string, source: string): Violation[] {
  const from = areaOf(file);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  for (const m of source.matchAll(IMPORT)) found.push({ specifier: m[3]!, typeOnly: Boolean(m[2]) });
  for (const m of source.matchAll(DYNAMIC)) found.push({ specifier: m[1]!, typeOnly: false });
  const violations: Violation[] = [];
  for (const { specifier, typeOnly } of found) {
    const to = specifier.startsWith(".") ? areaOf(resolve(dirname(file), specifier)) : null;
    const rule =
      from === "common" && (to === "api" || to === "db" || to === "pwa")
        ? "common/ imports nothing of api/, db/ or pwa/"
        : from === "common" && /^node:|^(fs|path|crypto|os|url)$/.test(specifier)
          ? "common/ runs in the browser too: no Node modules"
          : from === "db" && (to === "api" || to === "pwa")
            ? "db/ never imports api/ or pwa/"
            : from === "pwa" && to === "api" && !typeOnly
              ? "pwa/ imports only types from api/ (`import type`)"
              : from === "pwa" && to === "db"
                ? "pwa/ never imports db/"
                : from === "api" && to === "pwa"
                  ? "api/ never imports pwa/"
                  : null;
    if (rule) violations.push({ file: relative(root, file), specifier, rule });
  }
  return violations.concat(serverRoomImports(file, found));
}

// Inside api/, the rooms by domain (README, "How the code is laid out"): each holds its routes
// (`*-routes.ts`) and its services side by side; lib/ and providers/ hold what has no domain.
const DOMAINS = ["booking", "night", "organiser", "messaging", "ops", "wallet"] as const;
const roomOf = (path: string): string | null => {
  const parts = relative(root, path).split(/[\\/]/);
  return parts[0] === "api" && parts.length > 2 ? parts[1]! : null;
};
const isRoutes = (path: string) => /-routes\.ts$/.test(path);
const isDomain = (room: string | null) => (DOMAINS as readonly string[]).includes(room ?? "");

function serverRoomImports(file: string, found: { specifier: string }[]): Violation[] {
  const room = roomOf(file);
  if (areaOf(file) !== "api" || /\.test\.ts$/.test(file)) return [];
  const violations: Violation[] = [];
  for (const { specifier } of found) {
    const target = specifier.startsWith(".") ? resolve(dirname(file), specifier) : null;
    const to = target ? roomOf(target) : null;
    const rule =
      isDomain(room) && !isRoutes(file) && !file.endsWith("-cookie.ts") && /^hono(\/|$)/.test(specifier)
        ? "a domain's services take plain values: only its *-routes.ts (and cookies) import Hono"
        : target && isRoutes(target) && !(relative(root, file) === "api/app.ts" || (isRoutes(file) && to === room))
          ? "routes are chained in api/app.ts (a routes file may chain another of its own room)"
          : room === "messaging" && isDomain(to) && to !== "messaging"
            ? "messaging/ is the channel every room sends through: it imports no other room"
            : room === "providers" && isDomain(to) && !EXCEPTIONS.has(`${relative(root, file)} ${to}`)
              ? "providers/ stand behind their interfaces: they import no room"
              : room === "lib" && isDomain(to) && !EXCEPTIONS.has(`${relative(root, file)} ${to}`)
                ? "lib/ is what has no domain: it imports no room"
                : null;
    if (rule) violations.push({ file: relative(root, file), specifier, rule });
  }
  return violations;
}

// The staff guard decides who is calling from the host links and records into the activity log, both
// the organiser's, as the admin session's guard reads the team member a session names; the console
// SMS provider keeps its one-time codes in the booking room's code store as Twilio Verify keeps them
// on its side. The only places lib/ and providers/ read a room.
const EXCEPTIONS = new Set([
  "api/lib/staff.ts organiser",
  "api/lib/admin-session.ts organiser",
  "api/lib/host-session.ts organiser",
  "api/providers/sms/console.ts booking",
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name === "migrations" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("import direction", () => {
  it("holds across api/, common/, db/ and pwa/, and between the rooms inside api/", () => {
    const files = ["api", "common", "db", "pwa"].flatMap((area) => sourceFiles(join(root, area)));
    expect(files.length).toBeGreaterThan(100);
    const violations = files.flatMap((file) => forbiddenImports(file, readFileSync(file, "utf8")));
    expect(violations).toEqual([]);
  });

  it("catches each forbidden import, and lets the allowed ones through", () => {
    const at = (path: string) => join(root, path);
    expect(
      forbiddenImports(at("pwa/features/x.ts"), 'import { storeImage } from "../../api/booking/images.ts";'),
    ).toEqual([expect.objectContaining({ rule: "pwa/ imports only types from api/ (`import type`)" })]);
    expect(forbiddenImports(at("pwa/features/x.ts"), 'const m = await import("../../api/env.ts");')).toHaveLength(1);
    expect(forbiddenImports(at("pwa/features/x.ts"), 'export { parseEnv } from "../../api/env.ts";')).toHaveLength(1);
    expect(forbiddenImports(at("db/seed.ts"), 'import type { Env } from "../api/env.ts";')).toEqual([
      expect.objectContaining({ rule: "db/ never imports api/ or pwa/" }),
    ]);
    expect(forbiddenImports(at("common/x.ts"), 'import { readFileSync } from "node:fs";')).toHaveLength(1);
    expect(forbiddenImports(at("common/x.ts"), 'import { api } from "../pwa/lib/api.ts";')).toHaveLength(1);

    expect(forbiddenImports(at("pwa/lib/api.ts"), 'import type { AppType } from "../../api/app.ts";')).toEqual([]);
    expect(forbiddenImports(at("pwa/lib/x.ts"), 'import { MAX_IMAGE_BYTES } from "../../common/images.ts";')).toEqual(
      [],
    );
    expect(forbiddenImports(at("api/x.ts"), 'import { openDatabase } from "../db/client.ts";')).toEqual([]);

    // The rooms inside api/.
    expect(forbiddenImports(at("api/night/check-in.ts"), 'import { Hono } from "hono";')).toHaveLength(1);
    expect(forbiddenImports(at("api/night/door-routes.ts"), 'import { Hono } from "hono";')).toEqual([]);
    expect(
      forbiddenImports(at("api/organiser/refunds.ts"), 'import { doorRoutes } from "../night/door-routes.ts";'),
    ).toHaveLength(1);
    expect(forbiddenImports(at("api/app.ts"), 'import { doorRoutes } from "./night/door-routes.ts";')).toEqual([]);
    expect(
      forbiddenImports(at("api/messaging/outbox.ts"), 'import { whoCame } from "../night/attendance.ts";'),
    ).toHaveLength(1);
    expect(forbiddenImports(at("api/lib/log.ts"), 'import { ERASED } from "../ops/retention.ts";')).toHaveLength(1);
    expect(forbiddenImports(at("api/night/rounds.ts"), 'import { enqueueSms } from "../messaging/outbox.ts";')).toEqual(
      [],
    );
  });
});
