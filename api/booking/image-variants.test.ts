import { rm } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, makeImage } from "../../test/fixtures.ts";
import { HOUR, PASSWORD } from "../../test/suites/host-access.ts";
import { sweepUploads } from "../ops/upload-sweep.ts";
import { removeStoredFiles, storeImage } from "./images.ts";

// A deleted photo is not served on from the in-memory WebP variants
// (docs/decisions/012-disk-and-personal-data.md): deleting a stored image drops its variants, and a
// variant is never answered for a missing original.

const server = suiteTestServer();
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const variantStatus = async (name: string, width: 400 | 800) =>
  (await fetch(`${server.url}/api/images/${name}?w=${width}`)).status;

/** Asks for both widths, so both sit in the cache. */
async function warm(name: string) {
  expect(await variantStatus(name, 400)).toBe(200);
  expect(await variantStatus(name, 800)).toBe(200);
}

describe("cached WebP variants of deleted photos", () => {
  it("are gone once a replaced event picture is deleted", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    await warm(event.imageName);
    const form = new FormData();
    form.append("eventid", String(event.id));
    form.append("eventImage", new Blob([new Uint8Array(await makeImage("png"))], { type: "image/png" }), "new.png");
    expect((await admin.postForm("/api/update-event-image", form)).status).toBe(200);
    expect(await variantStatus(event.imageName, 400)).toBe(404);
    expect(await variantStatus(event.imageName, 800)).toBe(404);
  });

  it("are gone once the files are removed (a details retry, retention's erasure)", async () => {
    const dir = server.deps.env.UPLOADS_DIR;
    const stored = await storeImage(dir, await makeImage());
    await warm(stored.imageName);
    await removeStoredFiles(dir, [stored.imageName, stored.thumbName]);
    expect(await variantStatus(stored.imageName, 400)).toBe(404);
    expect(await variantStatus(stored.imageName, 800)).toBe(404);
  });

  it("are gone once the upload sweep deletes an orphan", async () => {
    const dir = server.deps.env.UPLOADS_DIR;
    const orphan = await storeImage(dir, await makeImage());
    await warm(orphan.imageName);
    const { filesRemoved } = await sweepUploads({ db: server.deps.db, uploadsDir: dir }, Date.now() + 2 * HOUR);
    expect(filesRemoved).toContain(orphan.imageName);
    expect(await variantStatus(orphan.imageName, 400)).toBe(404);
  });

  it("are never served for an original missing from the disk, however it went", async () => {
    const dir = server.deps.env.UPLOADS_DIR;
    const stored = await storeImage(dir, await makeImage());
    await warm(stored.imageName);
    await rm(join(dir, stored.imageName));
    expect(await variantStatus(stored.imageName, 400)).toBe(404);
    expect(await variantStatus(stored.imageName, 800)).toBe(404);
  });
});
