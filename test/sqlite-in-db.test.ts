import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// SQLite-only code (pragmas, the online backup API, checkpoints, sqlite_master, total_changes()) lives
// in db/, behind names that say what they give (db/sqlite.ts: changeStamp, backupTo, checkpointAndClose,
// …), so the rooms read as what they need and another database changes db/, not them. Tests may reach
// SQLite directly to look at what was stored.

const root = join(import.meta.dirname, "..");
const SQLITE_ONLY = [
  /\.pragma\(/,
  /prepare\(\s*["'`]\s*PRAGMA/i,
  /\bsqlite_master\b/,
  /\btotal_changes\(\)/,
  /\.backup\(/,
  /\.checkpoint\(/,
];

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1));
}

/** A file's code lines, without comments (whole-line // and block comments) and without string messages. */
function codeLines(text: string): { line: number; code: string }[] {
  let inBlock = false;
  return text.split("\n").flatMap((raw, i) => {
    const trimmed = raw.trim();
    if (inBlock) {
      if (trimmed.includes("*/")) inBlock = false;
      return [];
    }
    if (trimmed.startsWith("/*")) {
      inBlock = !trimmed.includes("*/");
      return [];
    }
    if (trimmed.startsWith("//") || trimmed.startsWith("*")) return [];
    return [{ line: i + 1, code: raw.replace(/\/\/.*$/, "") }];
  });
}

describe("SQLite-only code", () => {
  it("is in db/ and nowhere else the app runs", () => {
    const found: string[] = [];
    for (const file of ["api", "common", "pwa", "scripts", "bench"].flatMap(sources)) {
      for (const { line, code } of codeLines(readFileSync(join(root, file), "utf8"))) {
        // An error message may name the check it reports ("fails PRAGMA integrity_check").
        const withoutMessages = code.replace(/`[^`]*`|"[^"]*"/g, (s) => (/prepare\(/.test(code) ? s : '""'));
        if (SQLITE_ONLY.some((p) => p.test(withoutMessages))) found.push(`${file}:${line}: ${code.trim()}`);
      }
    }
    expect(found).toEqual([]);
  });
});
