#!/usr/bin/env node
// Gzip size of what the first route downloads: the index entry chunk, its static
// imports, their CSS, and the home route's lazy chunk (with its own static imports and
// CSS). Fails when it is over the budget. Run after `vite build --manifest`.
//   node scripts/bundle-budget.mjs [budgetKiB=120]
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const budgetKiB = Number(process.argv[2] ?? 120);
const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'));

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
const files = closure(homeKey, closure('index.html'));

const forbidden = [...files].filter((f) => /webview-host|\/en-|SettingsPage|NotFoundPage|LanguagePicker/.test(f));
let total = 0;
for (const file of [...files].sort()) {
  const size = gzipSync(readFileSync(`dist/${file}`), { level: 9 }).length;
  total += size;
  console.log(`${(size / 1024).toFixed(2).padStart(8)} KiB  ${file}`);
}
console.log(`${(total / 1024).toFixed(2).padStart(8)} KiB  total (gzip), budget ${budgetKiB} KiB`);
if (forbidden.length) {
  console.error(`first route must not load: ${forbidden.join(', ')}`);
  process.exit(1);
}
if (total > budgetKiB * 1024) process.exit(1);
