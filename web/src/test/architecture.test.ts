/**
 * Imports flow one way: shared → features → app (STYLE.md). Shared code knows no feature
 * and not the app; a feature knows no other feature and not the app. Tests and the test
 * helpers are exempt; the web-view host page is its own entry and may use only shared
 * code (and the app's bootstrap types).
 */
import { describe, expect, it } from 'vitest';

const sources: Record<string, string> = import.meta.glob('/src/**/*.{ts,tsx}', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** `@/…` and relative imports of a file, as paths under /src. */
function importsOf(file: string, code: string): string[] {
  const pattern = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
  const specs = [...code.matchAll(pattern)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
  return specs.flatMap((spec) => {
    if (spec.startsWith('@/')) return [`/src/${spec.slice(2)}`];
    if (spec.startsWith('.')) return [new URL(spec, `file://${file}`).pathname];
    return [];
  });
}

const layer = (path: string) => {
  const m = /^\/src\/(shared|features\/[^/]+|app|webview-host|test)\//.exec(path);
  return m?.[1] ?? 'root';
};

const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.startsWith('/src/test/');

describe('architecture', () => {
  const files = Object.entries(sources).filter(([file]) => !isTest(file));

  it('sees the source files and their imports', () => {
    expect(files.length).toBeGreaterThan(30);
    expect(violationsOf([['/src/shared/x.ts', "import { App } from '@/app/App';\nimport './y.css';"]])).toEqual([
      '/src/shared/x.ts → /src/app/App',
    ]);
    expect(violationsOf([['/src/features/a/x.tsx', "const B = lazy(() => import('../b/B'));"]])).toEqual([
      '/src/features/a/x.tsx → /src/features/b/B',
    ]);
  });

  it('imports flow shared → features → app', () => {
    expect(violationsOf(files)).toEqual([]);
  });
});

function violationsOf(files: [string, string][]): string[] {
  const violations: string[] = [];
  for (const [file, code] of files) {
    const from = layer(file);
    for (const target of importsOf(file, code)) {
      const to = layer(target);
      const bad =
        (from === 'shared' && to !== 'shared') ||
        (from.startsWith('features/') && to !== 'shared' && to !== from) ||
        (from === 'webview-host' &&
          to !== 'shared' &&
          to !== 'webview-host' &&
          !target.startsWith('/src/app/webview-host-bootstrap'));
      if (bad) violations.push(`${file} → ${target}`);
    }
  }
  return violations;
}
