/**
 * Patches the pinned `highlight.run` 9.20.0 client after install (`postinstall`), so the
 * metrics it exports follow spec §9: exported every 60,000 ms with a 30,000 ms timeout.
 * The client hard-codes its span exporter's 5,000 ms for the metric reader's interval and
 * timeout (`exportIntervalMillis` and `exportTimeoutMillis` both take `timeoutMillis`) and
 * has no option for either (docs/observability.md, "Metric export").
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

/** The patches: one exact replacement per file of `node_modules/highlight.run/dist`. */
export const HIGHLIGHT_PATCHES = [
  {
    // The ES module build, which the web app bundles.
    file: 'observe-BKxWWCLw.js',
    original: '45c26373276adc5a54e75e805805bec9777bb114585c5a2f66aee087ffab79b2',
    patched: '76077b72745b579d1ac101957efd53e408eaebde97a9338e18c516c3e8dbfd5f',
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
  {
    // The UMD build, for completeness (not used by the app).
    file: 'index.umd.js',
    original: 'ebd642236568f8df34229c2c14fab2046e1acfc47b94fd9135c96aa0031082a9',
    patched: '6701cba78f9c4bdef0e66945c34ab1bdb4ac4aaca3d3e1372e95bd5faa3fe608',
    from: 'url:r.otlpEndpoint+"/v1/metrics"})),u=new yN({exporter:c,exportIntervalMillis:s.timeoutMillis,exportTimeoutMillis:s.timeoutMillis})',
    to: `url:r.otlpEndpoint+"/v1/metrics",timeoutMillis:${TIMEOUT}})),u=new yN({exporter:c,exportIntervalMillis:${INTERVAL},exportTimeoutMillis:${TIMEOUT}})`,
  },
];

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/** Patches the client in `dist` (its `dist` folder); returns what was done per file. */
export function patchHighlight(dist) {
  return HIGHLIGHT_PATCHES.map(({ file, original, patched, from, to }) => {
    const path = join(dist, file);
    const text = readFileSync(path, 'utf8');
    const digest = sha256(text);
    if (digest === patched) return `${file}: already patched`;
    if (digest !== original) throw new Error(`highlight.run: ${file} is not the pinned 9.20.0 build (sha256 ${digest})`);
    const parts = text.split(from);
    if (parts.length !== 2) throw new Error(`highlight.run: ${file}: the metric reader's options are not there once`);
    const result = parts.join(to);
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
