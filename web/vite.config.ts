/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

// The Moat server (crates/moat-server) embeds `dist/` and serves it; in `npm run dev`
// the API is proxied to a locally running `moat`. The first page's JS + CSS must stay
// within 110 KiB gzip: `npm run size` checks it after a build.

/** Smaller files are not worth a compressed copy (the server uses the same threshold). */
const COMPRESS_MIN_BYTES = 256;

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * react-router's package exports point every bundler at its development build (dev-only
 * warnings and checks). Production builds use its production build instead.
 */
const reactRouterProduction = src('./node_modules/react-router/dist/production/index.mjs');

/**
 * react-router ships one big module whose top level creates contexts and components and
 * assigns their `displayName`s; to a bundler those look like side effects, so nothing
 * unused (framework-mode prefetching, `<Form>`, `<Await>`, …) could be dropped. Marking
 * the React factory calls pure and dropping the `displayName` lines (devtools labels
 * only) lets tree-shaking remove what the app does not import (about 4 KiB gzip). If a
 * react-router release changes its output, the patterns simply stop matching.
 */
function pureReactRouter(): Plugin {
  return {
    name: 'moat:pure-react-router',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes('/react-router/dist/production/')) return null;
      return code
        .replace(/^\s*[\w$]+\.displayName = "[^"]*";$/gm, '')
        .replace(/\b(React\d*)\.(createContext|forwardRef|memo)\(/g, '/* @__PURE__ */ $1.$2(');
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    pureReactRouter(),
    // Brotli (quality 11) and gzip copies beside every text asset, made once at build
    // time: the server sends `x.js.br` for `x.js` when the browser accepts it, so no
    // request ever waits for compression. `index.html` is a template the server fills
    // per route (and compresses on the fly), so it gets none.
    compression({
      include: /\.(js|mjs|css|svg|json|txt|xml|webmanifest|html)$/,
      exclude: /^index\.html$/,
      threshold: COMPRESS_MIN_BYTES,
      algorithms: ['brotliCompress', 'gzip'],
      logLevel: 'silent',
    }),
  ],
  resolve: {
    alias: [
      { find: '@', replacement: src('./src') },
      ...(command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
    ],
  },
  build: {
    target: 'es2022',
    // dist/.vite/manifest.json: scripts/bundle-budget.mjs (the first page's budget, run
    // after every build in scripts/test.sh) and bench/web.mjs read the chunk graph from it.
    manifest: true,
    // Every browser the app supports preloads modules natively.
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        index: src('./index.html'),
        'webview-host': src('./webview-host.html'),
      },
      output: {
        advancedChunks: {
          groups: [
            // Stored settings travel with i18n (which reads the locale from them) rather than
            // in a chunk of their own: the session (first page) and the API client use them too.
            { name: 'i18n', test: /src[\\/]shared[\\/](i18n[\\/]i18n\.ts|i18n[\\/]locales[\\/]ko\.ts|lib[\\/]storage\.ts)$/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', ws: true },
      '/healthz': 'http://127.0.0.1:8080',
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
}));
