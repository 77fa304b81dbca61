import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** A link of a markdown document that points at nothing. */
export interface BrokenLink {
  /** The document holding the link, relative to the root it was checked from. */
  document: string;
  line: number;
  target: string;
  problem: string;
}

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const INLINE_CODE = /`+[^`]*`+/g;
const LINK = /\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The lines of a markdown document outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): { line: number; text: string }[] {
  const lines: { line: number; text: string }[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, index) => {
    const opening = FENCE.exec(text)?.[1];
    if (opening !== undefined) {
      if (fence === undefined) fence = opening;
      else if (opening === fence) fence = undefined;
      return;
    }
    if (fence === undefined) lines.push({ line: index + 1, text });
  });
  return lines;
}

/**
 * The anchor GitHub gives a heading: its text as rendered (code spans, links and emphasis reduced
 * to their text), in lower case, without punctuation, spaces turned into hyphens.
 */
export function headingAnchor(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of a markdown document's headings; a repeated heading gets `-1`, `-2`… as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = HEADING.exec(text)?.[2];
    if (heading === undefined) continue;
    const anchor = headingAnchor(heading);
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
  }
  return anchors;
}

/** The relative links of a markdown document (no URL with a scheme), outside code. */
export function relativeLinks(markdown: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  for (const { line, text } of proseLines(markdown)) {
    for (const match of text.replace(INLINE_CODE, '').matchAll(LINK)) {
      const target = match[1] as string;
      if (!SCHEME.test(target)) links.push({ line, target });
    }
  }
  return links;
}

/**
 * The links of the given markdown documents (paths relative to `root`) whose file does not exist,
 * or whose `#anchor` names no heading of the markdown document it points at.
 */
export function brokenLinks(root: string, documents: readonly string[]): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const document of documents) {
    const path = resolve(root, document);
    for (const { line, target } of relativeLinks(readFileSync(path, 'utf8'))) {
      const hashAt = target.indexOf('#');
      const file = decodeURI(hashAt < 0 ? target : target.slice(0, hashAt));
      const anchor = hashAt < 0 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
      const targetPath = file === '' ? path : resolve(dirname(path), file);
      const report = (problem: string) =>
        broken.push({ document: relative(root, path), line, target, problem });
      if (!existsSync(targetPath)) {
        report(`${relative(root, targetPath)} does not exist`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(targetPath).isDirectory() || !targetPath.endsWith('.md')) {
        report(`${relative(root, targetPath)} is not a markdown document, so it has no #${anchor}`);
        continue;
      }
      if (!headingAnchors(readFileSync(targetPath, 'utf8')).has(anchor)) {
        report(`${relative(root, targetPath)} has no heading whose anchor is #${anchor}`);
      }
    }
  }
  return broken;
}

/** README.md and every markdown page under docs/, relative to `root`. */
export function projectDocuments(root: string): string[] {
  const pages = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));
  return ['README.md', ...pages.sort().map((name) => `docs/${name}`)];
}
