/**
 * The README is a front door to pages in docs/: every relative link of README.md, docs/*.md
 * and bench/README.md must lead to a file that exists and, when it names a heading
 * (`page.md#anchor`, or `#anchor` on the same page), to a heading with that anchor, as GitHub
 * makes anchors from headings. A page moved or a heading reworded breaks a link here, not in
 * front of a reader.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../src/version.js";

/** The text a reader sees as prose: fenced code, inline code and HTML comments taken out. */
function prose(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/`[^`\n]*`/g, "code");
}

/** The targets of a page's links and images, inline (`[text](target)`) and by reference (`[text]: target`). */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? "");
  const byReference = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1] ?? "");
  return [...inline, ...byReference];
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as `-`, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = (match[1] ?? "").replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`/g, "");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** What is wrong with each relative link of `page` (a path under `root`), or nothing. */
async function brokenLinks(root: string, page: string): Promise<string[]> {
  const text = await readFile(join(root, page), "utf8");
  const broken: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not a file of this repository
    const [path = "", anchor] = target.split("#", 2);
    const file = path === "" ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
    if (!existsSync(file)) {
      broken.push(`${page}: ${target}: no file ${relative(root, file)}`);
      continue;
    }
    if (anchor === undefined || anchor === "") continue;
    if (!file.endsWith(".md")) {
      broken.push(`${page}: ${target}: an anchor into a file that is not markdown`);
      continue;
    }
    if (!headingAnchors(await readFile(file, "utf8")).has(decodeURIComponent(anchor))) {
      broken.push(`${page}: ${target}: no heading #${anchor} in ${relative(root, file)}`);
    }
  }
  return broken;
}

async function pages(): Promise<string[]> {
  const docs = (await readdir(join(PACKAGE_ROOT, "docs"))).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`);
  return ["README.md", "bench/README.md", ...docs.sort()];
}

describe("the documentation's links", () => {
  it("lead from the README to pages that exist, and from every page to files and headings that exist", async () => {
    const all = await pages();
    expect(all.length).toBeGreaterThan(5);
    const readmeLinks = linkTargets(await readFile(join(PACKAGE_ROOT, "README.md"), "utf8"));
    expect(readmeLinks.filter((target) => target.startsWith("docs/")).length).toBeGreaterThan(10);
    const broken = (await Promise.all(all.map((page) => brokenLinks(PACKAGE_ROOT, page)))).flat();
    expect(broken).toEqual([]);
  });

  it("are caught when a file, or a heading, is missing", async () => {
    const root = await mkdtemp(join(tmpdir(), "portin-links-"));
    try {
      await mkdir(join(root, "docs"));
      await writeFile(join(root, "docs", "there.md"), "# There\n\n## A customer's own headers\n\n```sh\n# not a heading\n```\n");
      await writeFile(
        join(root, "README.md"),
        [
          "# Front",
          "[ok](docs/there.md) [ok](docs/there.md#a-customers-own-headers) [ok](#front) [web](https://example.com/x)",
          "[gone](docs/gone.md) [no heading](docs/there.md#not-a-heading) ![image](docs/gone.png)",
          "`[in code](docs/also-gone.md)` <!-- [in a comment](docs/later.md) -->",
          "",
          "[ref]: docs/gone-too.md",
        ].join("\n"),
      );
      expect(await brokenLinks(root, "README.md")).toEqual([
        "README.md: docs/gone.md: no file docs/gone.md",
        "README.md: docs/there.md#not-a-heading: no heading #not-a-heading in docs/there.md",
        "README.md: docs/gone.png: no file docs/gone.png",
        "README.md: docs/gone-too.md: no file docs/gone-too.md",
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
