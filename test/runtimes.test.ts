import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkRuntime, ROOT, RUNTIMES, readConfig } from "../scripts/runtimes.ts";

// Each runtime's program (scripts/runtimes.ts) refuses the other runtimes' globals and accepts its
// own. The files are written only in a temporary copy of the repository's layout, inside the folders
// the runtime's tsconfig covers; each program is built from them alone (plus what they import), so
// this takes seconds, not a full check.

const runtime = (name: string) => {
  const found = RUNTIMES.find((each) => each.name === name);
  if (!found) throw new Error(`no runtime ${name}`);
  return found;
};

/** The line and the message of each error, so a test names exactly what was refused. */
async function errors(name: string, files: Record<string, string>) {
  return (await checkRuntime(runtime(name), files)).map((problem) => `${problem.line || "?"}: ${problem.message}`);
}

describe("one TypeScript program per runtime", () => {
  it("the server has Node and not the browser's window or document", async () => {
    const found = await errors("server", {
      "api/runtime-probe.ts": [
        "export const port = process.env.PORT;",
        "export const bytes = Buffer.from('x');",
        "export const title = document.title;",
        "export const where = window.location.href;",
      ].join("\n"),
    });
    expect(found).toEqual([
      expect.stringMatching(/^3: Cannot find name 'document'/),
      expect.stringMatching(/^4: Cannot find name 'window'/),
    ]);
  });

  it("common/ is neither Node nor the browser: it fails in the server's program with DOM and in the browser's with Node", async () => {
    const probe = { "common/runtime-probe.ts": "export const a = document.title;\nexport const b = process.env.X;\n" };
    expect(await errors("server", probe)).toEqual([expect.stringMatching(/^1: Cannot find name 'document'/)]);
    // In the browser's program Node's globals are not declared at all, or (once api/ types come in) refused.
    expect(await errors("browser", probe)).toEqual([expect.stringMatching(/^2: .*'process'/)]);
  }, 60_000);

  it("the PWA has the DOM and not Node, even with the API's types imported (which bring @types/node along)", async () => {
    const found = await errors("browser", {
      "pwa/runtime-probe.ts": [
        'import type { AppType } from "../api/app.ts";',
        'import { readFileSync } from "node:fs";',
        "export type App = AppType;",
        "export const title = document.title;",
        "export const timer: ReturnType<typeof setTimeout> = setTimeout(() => undefined, 1);",
        "export const port = process.env.PORT;",
        "export const bytes = Buffer.from('x');",
        "export const read = readFileSync;",
        "export let handle: NodeJS.Timeout | undefined;",
      ].join("\n"),
    });
    expect(found).toEqual([
      expect.stringMatching(/^2: 'node:fs' exists only in Node/),
      expect.stringMatching(/^6: 'process' exists only in Node/),
      expect.stringMatching(/^7: 'Buffer' exists only in Node/),
      expect.stringMatching(/^9: 'NodeJS' exists only in Node/),
    ]);
  }, 90_000);

  it("the service worker has its own scope and not the page's document or window, nor Node", async () => {
    const found = await errors("sw", {
      "pwa/runtime-probe-sw.ts": [
        "declare let self: ServiceWorkerGlobalScope;",
        "self.addEventListener('sync', () => undefined);",
        "export const title = document.title;",
        "export const where = window.location.href;",
        "export const port = process.env.PORT;",
      ].join("\n"),
    });
    expect(found).toEqual([
      expect.stringMatching(/^3: Cannot find name 'document'/),
      expect.stringMatching(/^4: Cannot find name 'window'/),
      expect.stringMatching(/^5: .*'process'/),
    ]);
  }, 60_000);

  it("a PWA file is checked against the API's own code as the browser sees it, the DOM's File included", async () => {
    // The server's program reads the API with Node's globals (its File is Node's class); the browser's
    // reads the same sources with the DOM's, where a PWA's File is what the API's function takes.
    const api = {
      "api/runtime-probe-declared.ts": [
        'export const blank = () => new File([], "blank.jpg");',
        "export const photoName = (photo: ReturnType<typeof blank>) => photo.name;",
        "export const reply = () => ({ ok: true as const, count: 1 });",
      ].join("\n"),
    };
    const pwa = {
      "pwa/runtime-probe-declared.ts": [
        'import { photoName, reply } from "../api/runtime-probe-declared.ts";',
        'export const a = photoName(new File([], "me.jpg"));',
        "export const b: string = reply().count;",
        'export const c = photoName("me.jpg");',
        "export const d: true = reply().ok;",
      ].join("\n"),
    };
    expect(await errors("server", api)).toEqual([]);
    expect(await errors("browser", { ...api, ...pwa })).toEqual([
      expect.stringMatching(/^3: Type 'number' is not assignable to type 'string'/),
      expect.stringMatching(/^4: Argument of type 'string' is not assignable to parameter of type 'File'/),
    ]);
  }, 90_000);

  it("reports the errors of every file a runtime's tsconfig names: each program checks its own files", () => {
    for (const runtime of RUNTIMES) {
      const named = readConfig(runtime).fileNames.map((file) => path.relative(ROOT, file).split(path.sep).join("/"));
      expect(named.length, runtime.name).toBeGreaterThan(0);
      expect(
        named.filter((file) => !runtime.owns.test(file)),
        runtime.name,
      ).toEqual([]);
    }
    // What a program reads from another runtime is that runtime's: a test imports the API, the PWA its types.
    expect(RUNTIMES.find((each) => each.name === "test")?.owns.test("api/app.ts")).toBe(false);
    expect(RUNTIMES.find((each) => each.name === "browser")?.owns.test("api/app.ts")).toBe(false);
  });
});
