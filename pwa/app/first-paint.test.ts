import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FirstPaintPages } from "../../common/first-paint.ts";
import { drawFirstPaint } from "../../scripts/first-paint.mjs";

// What the build draws into each page's HTML (scripts/first-paint.mjs, first-paint.tsx): the pages'
// real components, drawn by React in Node, with the drawn page's styles from Vite's manifest.

let dir = "";
let pages: FirstPaintPages;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "first-paint-"));
  const manifest = join(dir, "manifest.json");
  writeFileSync(
    manifest,
    JSON.stringify({
      "index.html": { file: "assets/index-1.js", css: ["assets/index-1.css"], imports: ["_api-1.js"] },
      "_api-1.js": { file: "assets/api-1.js" },
      "_landing-1.js": { file: "assets/landing-1.js", css: ["assets/landing-1.css"] },
      "routes/welcome.tsx": {
        file: "assets/welcome-1.js",
        css: ["assets/welcome-1.css", "assets/index-1.css"],
        imports: ["index.html", "_landing-1.js"],
      },
      "_booking-1.js": { file: "assets/booking-1.js", css: ["assets/booking-1.css"], imports: ["_api-1.js"] },
      "routes/me.tsx": {
        file: "assets/me-1.js",
        css: ["assets/me-1.css"],
        imports: ["index.html", "_booking-1.js", "_api-1.js"],
      },
    }),
  );
  pages = await drawFirstPaint(manifest);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the first screen the build draws into a page's HTML", () => {
  it("draws the whole landing page, to be hydrated, with its own styles and not the entry's", () => {
    const welcome = pages["/welcome"];
    expect(welcome?.hydrate).toBe(true);
    expect(welcome?.head).toEqual([
      '<link rel="stylesheet" crossorigin href="/assets/welcome-1.css">',
      '<link rel="stylesheet" crossorigin href="/assets/landing-1.css">',
    ]);
    expect(welcome?.root).toContain('<h1 id="landing-heading">Date a step Deeper</h1>');
    expect(welcome?.root).toContain('href="/" data-discover="true">See upcoming events</a>');
    // The menu's toggle names its list by the id React gives both, which hydration must find again.
    const controls = /aria-controls="([^"]+)"/.exec(welcome?.root ?? "")?.[1];
    expect(welcome?.root).toContain(`<ul id="${controls}" class="landing-menu"`);
    // The clip comes with the code, once the visitor's motion setting is known; the poster shows until then.
    expect(welcome?.root).not.toContain("<video");
    expect(welcome?.root).toContain("background-image:url(/landing/hero-poster.jpg)");
    // React's preloads of pictures are not part of the markup (the logo is in it).
    expect(welcome?.root.startsWith("<link")).toBe(false);
  });

  it("draws My nights as every visitor first sees it, to be hydrated, with its page's own styles", () => {
    const me = pages["/me"];
    expect(me?.hydrate).toBe(true);
    // Not the sign-in's (booking-1.css): it is not drawn, and a stylesheet holds the first paint.
    expect(me?.head).toEqual(['<link rel="stylesheet" crossorigin href="/assets/me-1.css">']);
    expect(me?.root).toContain('<h1 tabindex="-1">My nights</h1>');
    expect(me?.root).toContain('<p class="me-lead">Every night booked with your mobile, in one place:');
    expect(me?.root).toContain('<p class="empty" role="status" aria-busy="true">Loading your nights…</p>');
    // Nobody's nights, sign-in state or saved tickets: those come once the code has asked.
    expect(me?.root).not.toContain("Sign in");
    expect(me?.root).not.toContain("Tickets saved on this phone");
  });

  it("draws the app's frame around the loading line on the pages loaded on demand", () => {
    const tickets = pages["/tickets"];
    expect(tickets?.hydrate).toBe(false);
    expect(tickets?.head).toEqual([]);
    expect(tickets?.root).toContain('<a href="/me" data-discover="true">My tickets</a>');
    expect(tickets?.root).toContain('<main class="page" aria-busy="true"><p class="empty">Loading…</p></main>');
    expect(tickets?.root).toContain("© 2024 Saathi Speed Dating. All rights reserved.");
    // The organiser's pages carry no attendee's My tickets, as the app draws them.
    expect(pages["/admin/door"]?.root).toContain("Loading…");
    expect(pages["/admin/door"]?.root).not.toContain("My tickets");
  });

  it("draws the home page as the app's first render does: the heading, the list loading, the blurb", () => {
    const home = pages["/"];
    expect(home?.hydrate).toBe(false);
    expect(home?.root).toContain('<h1 id="upcoming-heading">Upcoming Events</h1>');
    expect(home?.root).toContain('aria-label="Loading events"');
    expect(home?.root).toContain("Speed date to find your next Date!");
  });

  it("draws no other page's own state (a guest's booking, an organiser's screen): each is the loading frame", () => {
    for (const [path, page] of Object.entries(pages)) {
      // `/me`'s drawn screen is the same for every visitor (the test above).
      if (path === "/" || path === "/welcome" || path === "/me") continue;
      expect(page.root, path).toContain("Loading…");
    }
  });
});
