#!/usr/bin/env node
// Gzip size of what the first route downloads: the index entry chunk, its static
// imports, their CSS, and the home route's lazy chunk (with its own static imports and
// CSS). Fails when it is over the budget. Reads the manifest every `vite build` writes
// (dist/.vite/manifest.json), so it runs right after a build (scripts/test.sh does).
//   node scripts/bundle-budget.mjs [budgetKiB=110]
// bench/web.mjs prints the same figure through `firstRoute`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The default budget, KiB gzip: room under it for the next areas' entries and slots. */
export const BUDGET_KIB = 110;

/** Files the first page must never load (other languages, pages home does not show). */
const FORBIDDEN = /webview-host|\/en-|SettingsPage|NotFoundPage|LanguagePicker|AllMenu|FeedbackModal|highlight|rrweb|lightweight-charts/;

/**
 * The first route's files (entry, home chunk, their static imports and CSS) with their
 * gzip sizes (level 9), read from the build in `dist` (a URL or path of web/dist/).
 */
export function firstRoute(dist) {
  const root = new URL(dist.toString().endsWith('/') ? dist.toString() : `${dist}/`, `file://${process.cwd()}/`);
  const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', root), 'utf8'));

  /** Files of `key` and of everything it imports statically. */
  function closure(key, files = new Set()) {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return files;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const dep of chunk.imports ?? []) closure(dep, files);
    return files;
  }

  const homeKey = Object.keys(manifest).find((k) => k.endsWith('pages/home/HomePage.tsx'));
  if (!homeKey) throw new Error('home route chunk not found in the manifest');
  const names = [...closure(homeKey, closure('index.html'))].sort();
  const files = names.map((file) => ({ file, gzip: gzipSync(readFileSync(new URL(file, root)), { level: 9 }).length }));
  return {
    files,
    total: files.reduce((sum, f) => sum + f.gzip, 0),
    forbidden: names.filter((f) => FORBIDDEN.test(f)),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const budgetKiB = Number(process.argv[2] ?? BUDGET_KIB);
  const { files, total, forbidden } = firstRoute('dist/');
  for (const { file, gzip } of files) console.log(`${(gzip / 1024).toFixed(2).padStart(8)} KiB  ${file}`);
  console.log(`${(total / 1024).toFixed(2).padStart(8)} KiB  total (gzip), budget ${budgetKiB} KiB`);
  if (forbidden.length) {
    console.error(`first route must not load: ${forbidden.join(', ')}`);
    process.exit(1);
  }
  if (total > budgetKiB * 1024) {
    console.error(`first route is over its budget of ${budgetKiB} KiB gzip`);
    process.exit(1);
  }
}
