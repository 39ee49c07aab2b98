/**
 * Patches the pinned `highlight.run` 9.20.0 client after install (`postinstall`):
 *  - so the metrics it exports follow spec §9: exported every 60,000 ms with a 30,000 ms
 *    timeout. The client hard-codes its span exporter's 5,000 ms for the metric reader's
 *    interval and timeout (`exportIntervalMillis` and `exportTimeoutMillis` both take
 *    `timeoutMillis`) and has no option for either (docs/observability.md, "Metric export");
 *  - so recording a page breaks no Content-Security-Policy: the bundled rrweb diffs a
 *    changed `style` attribute by parsing the old value through
 *    `span.setAttribute('style', old)` on a detached element, which the page's
 *    `style-src 'self'` still checks and blocks (one violation per style change: 13 on
 *    home's first seconds). Assigning `span.style.cssText` parses the same text through
 *    the CSSOM, which CSP does not govern, and gives the same declarations
 *    (docs/observability.md, "Content-Security-Policy"; upstream rrweb issue #816,
 *    fixed this way by PostHog's fork).
 *
 * Each patched file is known by its SHA-256 before and after: a file with neither digest
 * (another client version, a changed build) fails the install instead of being patched
 * blindly; an already patched file is left as it is. Files are replaced (written beside
 * and renamed), never written in place, so a hard-linked copy elsewhere is not touched.
 * `src/app/observability/client-pin.test.ts` checks the installed client against this.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Spec §9's metric export interval and timeout, as the bundle writes numbers. */
const INTERVAL = '6e4';
const TIMEOUT = '3e4';

/** The patches: exact replacements (each found once) per file of `node_modules/highlight.run/dist`. */
export const HIGHLIGHT_PATCHES = [
  {
    // The ES module build, which the web app bundles.
    file: 'observe-BKxWWCLw.js',
    original: '45c26373276adc5a54e75e805805bec9777bb114585c5a2f66aee087ffab79b2',
    patched: '76077b72745b579d1ac101957efd53e408eaebde97a9338e18c516c3e8dbfd5f',
    edits: [
      {
        from: `url: r.otlpEndpoint + "/v1/metrics"
  })), l = new mh({
    exporter: s,
    exportIntervalMillis: o.timeoutMillis,
    exportTimeoutMillis: o.timeoutMillis
  });`,
        to: `url: r.otlpEndpoint + "/v1/metrics", timeoutMillis: ${TIMEOUT}
  })), l = new mh({
    exporter: s,
    exportIntervalMillis: ${INTERVAL},
    exportTimeoutMillis: ${TIMEOUT}
  });`,
      },
    ],
  },
  {
    // The ES module build's recorder (rrweb's mutation observer).
    file: 'record-DO35txsx.js',
    original: 'c3ef151cf23781e0f316542d60d563234834f97811622030a6a8b549ea4f22f9',
    patched: '9bf68e670d3ed4ac6a6a5298a18ce33732c1b9d44e11a571f80922feca534d0c',
    edits: [{ from: 'e.oldValue && a.setAttribute("style", e.oldValue);', to: 'e.oldValue && (a.style.cssText = e.oldValue);' }],
  },
  {
    // The UMD build, for completeness (not used by the app).
    file: 'index.umd.js',
    original: 'ebd642236568f8df34229c2c14fab2046e1acfc47b94fd9135c96aa0031082a9',
    patched: '2636ab2d587c8769bbfcd3d0f6b1487188c2060ec02ab4b2f66e386eb7138da9',
    edits: [
      {
        from: 'url:r.otlpEndpoint+"/v1/metrics"})),u=new yN({exporter:c,exportIntervalMillis:s.timeoutMillis,exportTimeoutMillis:s.timeoutMillis})',
        to: `url:r.otlpEndpoint+"/v1/metrics",timeoutMillis:${TIMEOUT}})),u=new yN({exporter:c,exportIntervalMillis:${INTERVAL},exportTimeoutMillis:${TIMEOUT}})`,
      },
      { from: 'e.oldValue&&l.setAttribute("style",e.oldValue);', to: 'e.oldValue&&(l.style.cssText=e.oldValue);' },
    ],
  },
];

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/** Patches the client in `dist` (its `dist` folder); returns what was done per file. */
export function patchHighlight(dist) {
  return HIGHLIGHT_PATCHES.map(({ file, original, patched, edits }) => {
    const path = join(dist, file);
    const text = readFileSync(path, 'utf8');
    const digest = sha256(text);
    if (digest === patched) return `${file}: already patched`;
    if (digest !== original) throw new Error(`highlight.run: ${file} is not the pinned 9.20.0 build (sha256 ${digest})`);
    const result = edits.reduce((current, { from, to }) => {
      const parts = current.split(from);
      if (parts.length !== 2) throw new Error(`highlight.run: ${file}: ${JSON.stringify(from.slice(0, 60))}… is not there once`);
      return parts.join(to);
    }, text);
    if (sha256(result) !== patched) throw new Error(`highlight.run: ${file}: the patched file is not the expected one (sha256 ${sha256(result)})`);
    writeFileSync(`${path}.moat-patch`, result);
    renameSync(`${path}.moat-patch`, path);
    return `${file}: patched`;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  for (const line of patchHighlight(join(root, 'node_modules/highlight.run/dist'))) console.log(`patch-highlight: ${line}`);
}
