/**
 * Relative links in Markdown pages and the anchors GitHub gives their headings, so a test can
 * find every link of the handbook that leads nowhere. Anchors follow GitHub's rules: the heading's
 * text as rendered (code spans and links reduced to their text), lower-cased, every character
 * that is not a letter, digit, mark, `_`, `-` or space removed, each space turned into `-`; a
 * repeated anchor gets `-1`, `-2`, … in order. Links inside code (fenced blocks, code spans) are
 * not links, and links with a scheme (`https:`, `mailto:`) are outside the repository.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export interface MarkdownLink {
  /** 1-based line of the page. */
  readonly line: number;
  /** The target as written, e.g. `docs/aws.md#alarms-and-runbooks`. */
  readonly target: string;
}

const FENCE = /^\s*(```|~~~)/;
/** A code span, which may run over several lines of one paragraph (never over a blank line). */
const CODE_SPAN = /(`+)(?:(?!\n[ \t]*\n)[\s\S])*?\1/g;

/** The page's lines with fenced blocks blanked, so line numbers stay those of the file. */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split("\n").map((line) => {
    if (FENCE.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

/** The prose lines with code spans blanked too (their line breaks kept). */
function linkableLines(markdown: string): string[] {
  return proseLines(markdown)
    .join("\n")
    .replace(CODE_SPAN, (span) => span.replace(/[^\n]/g, " "))
    .split("\n");
}

/** A heading's text as GitHub renders it: code spans and links reduced to their text. */
function renderedText(heading: string): string {
  return heading
    .replace(/`+([^`]*)`+/g, "$1")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "");
}

/** The anchor GitHub makes of one heading's text, before duplicates are numbered. */
export function githubSlug(heading: string): string {
  return renderedText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replaceAll(" ", "-");
}

/** Every anchor a page offers: its headings' (numbered when repeated) and explicit `<a id>`/`<a name>`. */
export function pageAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1] ?? "");
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const INLINE_LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/;
const HAS_SCHEME = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** The page's links that stay inside the repository (no scheme), in order. */
export function relativeLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  linkableLines(markdown).forEach((line, index) => {
    const targets = [...line.matchAll(INLINE_LINK)].map((match) => match[1] ?? "");
    const definition = REFERENCE_DEFINITION.exec(line)?.[1];
    if (definition !== undefined) targets.push(definition);
    for (const target of targets) {
      if (!HAS_SCHEME.test(target)) links.push({ line: index + 1, target });
    }
  });
  return links;
}

/**
 * Every relative link of the given pages (paths relative to `root`) that names a missing file,
 * or an anchor its Markdown target does not have, as `page:line: target (what is missing)`.
 */
export function brokenLinks(root: string, pages: readonly string[]): string[] {
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let found = anchorsOf.get(file);
    if (found === undefined) {
      found = pageAnchors(readFileSync(file, "utf8"));
      anchorsOf.set(file, found);
    }
    return found;
  };
  const broken: string[] = [];
  for (const page of pages) {
    const file = join(root, page);
    for (const { line, target } of relativeLinks(readFileSync(file, "utf8"))) {
      const [pathPart = "", anchor] = target.split("#", 2);
      const path = decodeURIComponent(pathPart);
      const targetFile = path === "" ? file : resolve(dirname(file), path);
      const where = `${page}:${line}: ${target}`;
      if (!existsSync(targetFile)) {
        broken.push(`${where} (no file ${relative(root, targetFile)})`);
      } else if (anchor !== undefined && statSync(targetFile).isFile() && targetFile.endsWith(".md")) {
        if (!anchors(targetFile).has(decodeURIComponent(anchor))) {
          broken.push(`${where} (no heading #${anchor} in ${relative(root, targetFile)})`);
        }
      }
    }
  }
  return broken;
}
