/**
 * Splitting a text around the words a search matched, so the page can wrap each in
 * `<mark>` as React elements (never as HTML). Terms are matched literally (`c++`, `(`),
 * case-insensitively, longest first where two overlap.
 */

/** A run of text, `match` when it is one of the terms. */
export interface TextPart {
  text: string;
  match: boolean;
}

const escape = (term: string) => term.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** The pattern that finds any of `terms`, or `null` when there is nothing to find. */
export function termPattern(terms: readonly string[]): RegExp | null {
  const words = [...new Set(terms.map((t) => t.trim()).filter(Boolean))].sort((a, b) => b.length - a.length);
  return words.length ? new RegExp(words.map(escape).join('|'), 'giu') : null;
}

/** `text` cut into runs, the matched ones marked. */
export function splitByTerms(text: string, pattern: RegExp | null): TextPart[] {
  if (!pattern) return [{ text, match: false }];
  const parts: TextPart[] = [];
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    const start = m.index;
    if (m[0] === '') continue;
    if (start > last) parts.push({ text: text.slice(last, start), match: false });
    parts.push({ text: m[0], match: true });
    last = start + m[0].length;
  }
  if (last < text.length || parts.length === 0) parts.push({ text: text.slice(last), match: false });
  return parts;
}
