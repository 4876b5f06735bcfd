/**
 * Just enough Markdown for the link test: the relative links of a document and the anchors of its
 * headings, both outside fenced code blocks and inline code.
 */

/** The lines of a document that are not inside a fenced code block (``` or ~~~). */
function proseLines(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (fence === null) fence = m[1][0];
      else if (m[1][0] === fence) fence = null;
      continue;
    }
    if (fence === null) out.push(line);
  }
  return out;
}

/** GitHub's heading anchor: inline markup dropped, lower case, punctuation removed, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every heading's anchor, repeated headings numbered -1, -2, ... as GitHub does. */
export function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const m = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

export interface RelativeLink {
  /** the path part, relative to the document ('' for a link to a heading of the same document) */
  target: string;
  anchor: string | undefined;
}

/** Links and images whose target is not an absolute URL (scheme:) — the ones a clone must hold. */
export function relativeLinks(text: string): RelativeLink[] {
  const links: RelativeLink[] = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const raw = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) continue;
      const hash = raw.indexOf('#');
      links.push(hash < 0 ? { target: raw, anchor: undefined } : { target: raw.slice(0, hash), anchor: raw.slice(hash + 1) });
    }
  }
  return links;
}
