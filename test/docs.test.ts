import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { proseLines } from "./markdown.ts";

// The docs a newcomer reads: the README is a front door (at most 250 lines) and every relative link
// in every Markdown file of the repository leads somewhere, to a file or folder that exists and, where
// the link names a heading (`#…`), to a heading that the target file has. Every setting `api/env.ts`
// reads is documented in docs/operations.md, and every decision record says when and whether it stands.

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const markdownFiles = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.md"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((f) => f && existsSync(join(root, f)));

/** GitHub's anchors for a file's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = line.match(/^#{1,6} (.+?)#*\s*$/);
    if (!heading) continue;
    const base = (heading[1] ?? "")
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Every `[text](target)` link of a file outside code, with its line number; inline code spans are skipped. */
function links(markdown: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  let fenced = false;
  markdown.split("\n").forEach((raw, i) => {
    if (raw.trimStart().startsWith("```")) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    const line = raw.replace(/`[^`]*`/g, "``");
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) found.push({ target: m[1] ?? "", line: i + 1 });
  });
  return found;
}

describe("the docs", () => {
  it("finds the repository's Markdown files", () => {
    expect(markdownFiles).toContain("README.md");
    expect(markdownFiles.length).toBeGreaterThan(20);
  });

  it("keeps the README a front door of at most 250 lines", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(250);
    for (const command of ["npm install && npm start", "npm test"]) expect(readme).toContain(command);
  });

  it("has no relative link that leads nowhere", () => {
    const broken: string[] = [];
    for (const file of markdownFiles) {
      const text = readFileSync(join(root, file), "utf8");
      for (const { target, line } of links(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [path, anchor] = target.split("#", 2) as [string, string | undefined];
        const to = path === "" ? join(root, file) : resolve(dirname(join(root, file)), decodeURI(path));
        const where = `${file}:${line} → ${target}`;
        if (!to.startsWith(root) || !existsSync(to)) {
          broken.push(`${where} (no ${relative(root, to)})`);
          continue;
        }
        if (anchor && statSync(to).isFile() && to.endsWith(".md")) {
          if (!headingAnchors(readFileSync(to, "utf8")).has(anchor)) broken.push(`${where} (no heading #${anchor})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("documents in docs/operations.md every setting api/env.ts reads", () => {
    const env = readFileSync(join(root, "api/env.ts"), "utf8");
    const block = env.slice(env.indexOf("const schema = z"), env.indexOf("\n  })", env.indexOf("const schema = z")));
    const names = [...block.matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(30);
    const operations = readFileSync(join(root, "docs/operations.md"), "utf8");
    expect(names.filter((name) => !operations.includes(`\`${name}\``))).toEqual([]);
  });

  it("opens every decision record with its date and status, and lists each in docs/decisions/README.md", () => {
    const records = markdownFiles.filter((f) => /^docs\/decisions\/\d{3}-.+\.md$/.test(f)).sort();
    expect(records.length).toBeGreaterThan(30);
    const index = readFileSync(join(root, "docs/decisions/README.md"), "utf8");
    const wrong: string[] = [];
    for (const record of records) {
      const head = readFileSync(join(root, record), "utf8").split("\n").slice(0, 6).join("\n");
      if (!/^Date: \d{4}-\d{2}-\d{2}$/m.test(head)) wrong.push(`${record}: no Date: line`);
      if (!/^Status: (Accepted.*|Superseded by \d{3}.*)$/m.test(head)) wrong.push(`${record}: no Status: line`);
      if (!index.includes(`(${record.slice("docs/decisions/".length)})`)) wrong.push(`${record}: not in the index`);
    }
    expect(wrong).toEqual([]);
  });

  it("keeps each decision record a decision: at most 150 lines", () => {
    const long = markdownFiles
      .filter((f) => /^docs\/decisions\/\d{3}-.+\.md$/.test(f))
      .filter((f) => readFileSync(join(root, f), "utf8").trimEnd().split("\n").length > 150);
    expect(long).toEqual([]);
  });
});
