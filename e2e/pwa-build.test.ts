import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Checks the production build that `npm test` makes just before the browser suites.
const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const read = (file: string) => readFileSync(join(dist, file), "utf8");

describe("the production build", () => {
  it("has a web manifest that makes the app installable", () => {
    const manifest = JSON.parse(read("manifest.webmanifest"));
    expect(manifest).toMatchObject({
      name: "Saathi Speed Dating",
      short_name: "Saathi",
      display: "standalone",
      start_url: "/",
      theme_color: "#c2366b",
    });
    const icons = manifest.icons as { src: string; sizes: string; purpose?: string }[];
    expect(icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    expect(icons.some((i) => i.purpose === "maskable")).toBe(true);
    for (const icon of icons) expect(existsSync(join(dist, icon.src))).toBe(true);
    expect(read("index.html")).toContain('<link rel="manifest" href="/manifest.webmanifest">');
  });

  it("has a service worker that precaches the shell and its code but no API call", () => {
    const sw = read("sw.js");
    const urls = [...sw.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]);
    expect(urls).toContain("index.html");
    expect(urls).toContain("manifest.webmanifest");
    const scripts = read("index.html").match(/\/assets\/[\w.-]+\.js/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(urls).toContain(script.slice(1));
    // Every lazily loaded page chunk is precached too, so any page opens offline.
    expect(urls.filter((u) => u?.startsWith("assets/") && u.endsWith(".js")).length).toBeGreaterThan(3);
    expect(urls.some((u) => u?.includes("api/"))).toBe(false);
    // The landing video is fetched on demand, not forced into every install.
    expect(urls.some((u) => u?.startsWith("landing/"))).toBe(false);
  });

  it("keeps /api out of the navigation fallback", () => {
    const sw = read("sw.js");
    expect(sw).toContain("denylist:[/^\\/api\\//]");
  });

  it("leaves react-router's unused Form and NavLink out of the home page's entry", () => {
    // vite.config.ts drops their display names and marks their forwardRef pure; without that, the
    // form-submission code rode along in every first load (docs/decisions/007-scale.md).
    const scripts = read("index.html").match(/\/assets\/[\w.-]+\.js/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    const entry = scripts.map((script) => read(script.slice(1))).join("\n");
    expect(entry).toContain("createRoot");
    expect(entry).not.toContain("multipart/form-data");
    expect(entry).not.toContain("application/x-www-form-urlencoded");
  });

  it("ships no server secret or server-only code to the browser", () => {
    const files = listFiles(dist).filter((f) => /\.(js|html|css|webmanifest|json)$/.test(f));
    expect(files.length).toBeGreaterThan(3);
    const bundle = files.map((f) => readFileSync(f, "utf8")).join("\n");
    for (const forbidden of [
      "STRIPE_SECRET_KEY",
      "STRIPE_WEBHOOK_SECRET",
      "TWILIO_AUTH_TOKEN",
      "SESSION_SECRET",
      "ADMIN_PASSWORD",
      "admin-dev-password",
      "better-sqlite3",
      "drizzle-orm",
      "sk_live_",
      "sk_test_",
      "whsec_",
    ]) {
      expect(bundle, forbidden).not.toContain(forbidden);
    }
  });
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}
