import { eq } from "drizzle-orm";
import type { Browser, Dialog, Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { cameraPhoto } from "../test/camera-photo.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, fillDateOfBirth, newContext, noBrowser, verifyPhone } from "./harness.ts";
import { addEvent } from "./steps.ts";

// The phone shrinks a camera photo before it uploads it (pwa/lib/shrink-photo.ts,
// docs/decisions/007-scale.md): what goes over the wire is read back from the request itself, and
// what the server stored from its uploads folder.

const test = browserSuite();

describe.skipIf(noBrowser)("the photo a phone uploads", () => {
  let server: AppServer;
  let browser: Browser;
  let camera: Buffer;
  let upright: Buffer;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    await addEvent(server, { name: "Photo Night", totalSeats: 20 });
    // 4000 × 3000 camera JPEGs (about 3.3 MB): one landscape, one stored landscape with EXIF
    // orientation 6, as a phone held upright saves it, so it shows 3000 wide and 4000 high.
    [camera, upright] = await Promise.all([
      cameraPhoto(1, { width: 4000, height: 3000 }),
      cameraPhoto(2, { width: 4000, height: 3000, orientation: 6 }),
    ]);
  }, 180_000);

  /** Books Photo Night up to the details form and submits it with `file`; returns the uploaded photo. */
  const submitWith = async (
    page: Page,
    phone: { typed: string; e164: string },
    file: Parameters<Page["setInputFiles"]>[1],
  ) => {
    page.on("dialog", (dialog: Dialog) => void dialog.accept());
    const uploaded = new Promise<File>((resolve) => {
      void page.route("**/api/save-user-details", async (route) => {
        const request = route.request();
        const form = await new Response(new Uint8Array(request.postDataBuffer() ?? Buffer.alloc(0)), {
          headers: { "content-type": request.headers()["content-type"] ?? "" },
        }).formData();
        resolve(form.get("image") as File);
        await route.continue();
      });
    });
    await page.goto("/");
    await page
      .locator("article.event-card", { hasText: "Photo Night" })
      .getByRole("button", { name: "Book Tickets" })
      .click();
    await page.waitForURL("**/otp-verification?eventID=*");
    await verifyPhone(page, server.url, phone.typed, phone.e164);
    await page.getByLabel("Name").fill("Meera Iyer");
    await page.getByLabel("Email", { exact: true }).fill("meera@example.com");
    await page.getByLabel("Gender").selectOption("female");
    await fillDateOfBirth(page);
    await page.getByLabel("Photo").setInputFiles(file);
    await page.getByLabel("I have read who sees my details").check();
    await page.getByRole("button", { name: "Submit" }).click();
    return uploaded;
  };

  /**
   * The display copy the server stored for the attendee with this phone, once stored: the seat is
   * confirmed before the photo is (issue 38), which follows within moments.
   */
  const storedPhoto = async (e164: string) => {
    const imageName = () => {
      const db = openDatabase(`${server.dataDir}/app.db`);
      try {
        return db.select().from(users).where(eq(users.phone, e164)).get()?.imageName;
      } finally {
        db.$client.close();
      }
    };
    await expect.poll(imageName, { timeout: 15_000 }).toMatch(/^[a-f0-9]{32}\.jpg$/);
    return sharp(`${server.dataDir}/uploads/${imageName()}`).metadata();
  };

  it("sends a 4000 × 3000 camera JPEG at 1600 px and under 600 KB", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    const phone = { typed: "0412 345 601", e164: "+61412345601" };
    const sent = await submitWith(page, phone, { name: "IMG_0001.jpg", mimeType: "image/jpeg", buffer: camera });
    await page.waitForURL("**/confirmation?eventID=*");
    const bytes = Buffer.from(await sent.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(camera.length).toBeGreaterThan(3_000_000);
    expect(bytes.length).toBeLessThanOrEqual(600 * 1024);
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1600, 1200]);
    expect(sent.type).toBe("image/jpeg");
    const stored = await storedPhoto(phone.e164);
    expect([stored.width, stored.height]).toEqual([1200, 900]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("turns an orientation-6 photo upright before sending it", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    const phone = { typed: "0412 345 602", e164: "+61412345602" };
    const sent = await submitWith(page, phone, { name: "IMG_0002.jpg", mimeType: "image/jpeg", buffer: upright });
    await page.waitForURL("**/confirmation?eventID=*");
    const meta = await sharp(Buffer.from(await sent.arrayBuffer())).metadata();
    // Upright: the pixels themselves are portrait, with no orientation left to apply.
    expect([meta.width, meta.height]).toEqual([1200, 1600]);
    expect(meta.orientation ?? 1).toBe(1);
    const stored = await storedPhoto(phone.e164);
    expect([stored.width, stored.height]).toEqual([900, 1200]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
