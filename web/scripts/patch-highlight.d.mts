/** Types of `./patch-highlight.mjs` (for the client's pin test). */
export interface HighlightPatch {
  /** A file of `node_modules/highlight.run/dist`. */
  file: string;
  /** SHA-256 of the file as published. */
  original: string;
  /** SHA-256 of the file once patched. */
  patched: string;
  from: string;
  to: string;
}

export const HIGHLIGHT_PATCHES: readonly HighlightPatch[];

export function patchHighlight(dist: string): string[];
