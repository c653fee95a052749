import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EVENT_TEXT_FIELDS, EVENT_WIRE_NAMES } from "../common/event-wire.ts";

// One name per event field from the table to the screen (issue 47, part 3;
// docs/decisions/044-one-name-per-field.md): the PWA maps each reply carrying an event's fields once,
// where it arrives, through common/event-wire.ts (`eventOfReply`), and its screens read the code's
// names (`address`, `startsAt`, `priceCents`). This fails when a file of the PWA names a reply's wire
// name again (`event.event_address`), which would be a second mapping to keep by hand.

const root = new URL("..", import.meta.url);

/** The replies' names that differ from the code's (`id` is both). */
const wireNames = Object.entries({ ...EVENT_WIRE_NAMES, ...EVENT_TEXT_FIELDS })
  .filter(([name, row]) => row.reply !== name)
  .map(([, row]) => row.reply);

const pwaFiles = () =>
  execSync("git ls-files --cached --others --exclude-standard 'pwa/*.ts' 'pwa/*.tsx'", {
    cwd: root,
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => file && !/\.test\.tsx?$/.test(file));

describe("one name per event field in the PWA", () => {
  it("no file of the PWA names a reply's event wire name: each reply is mapped once, by common/event-wire.ts", () => {
    expect(wireNames).toEqual(expect.arrayContaining(["event_address", "EventDateTime", "booking_amount"]));
    const files = pwaFiles();
    expect(files.length).toBeGreaterThan(100);
    const pattern = new RegExp(`\\b(${wireNames.join("|")})\\b`);
    const found = files.flatMap((file) =>
      readFileSync(new URL(file, root), "utf8")
        .split("\n")
        .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
