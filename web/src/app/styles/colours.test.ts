import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Every stylesheet of the app, as text, by its path from `src`. */
const root = fileURLToPath(new URL('../../', `file://${__filename}`));
const sheets: Record<string, string> = Object.fromEntries(
  readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.css'))
    .map((path) => [`/src/${path}`, readFileSync(`${root}${path}`, 'utf8')]),
);
const global = sheets['/src/app/styles/global.css']!;

/** The declarations of the first block whose selector is exactly `selector` (after `from`). */
function block(css: string, selector: string, from = 0): Record<string, string> {
  const start = css.indexOf(`${selector} {`, from);
  expect(start, selector).toBeGreaterThanOrEqual(0);
  const body = css.slice(css.indexOf('{', start) + 1, css.indexOf('}', start));
  return Object.fromEntries([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2]!.trim()]));
}

const isRed = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  return r > 180 && r > g * 1.5 && r > b * 1.5;
};
const isGreen = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  return g > r * 1.5 && g > b;
};
const isBlue = (hex: string) => {
  const [r, , b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  return b > 180 && b > r * 1.5;
};

describe('the colours of gains and losses', () => {
  it('in Korean red is up and blue is down, in English green is up and red is down (light and dark)', () => {
    const dark = global.indexOf('@media (prefers-color-scheme: dark)');
    for (const from of [0, dark]) {
      const ko = block(global, ':root', from);
      const en = block(global, ':root:lang(en)', from);
      expect(isRed(ko['--color-up']!), `ko up ${ko['--color-up']}`).toBe(true);
      expect(isBlue(ko['--color-down']!), `ko down ${ko['--color-down']}`).toBe(true);
      expect(isGreen(en['--color-up']!), `en up ${en['--color-up']}`).toBe(true);
      expect(isRed(en['--color-down']!), `en down ${en['--color-down']}`).toBe(true);
    }
  });

  it('is one pair: no other stylesheet sets its own colours of rises and falls', () => {
    const others = Object.entries(sheets).filter(([path]) => path !== '/src/app/styles/global.css');
    expect(others.length).toBeGreaterThan(10);
    for (const [path, css] of others) {
      expect(css, path).not.toMatch(/--color-(up|down)\s*:/);
      expect(css, path).not.toMatch(/--color-(rise|fall)/);
    }
    // Every screen's up/down classes take the pair.
    const uses = Object.values(sheets).join('\n');
    for (const cls of ['.market-up', '.pf-up', '.home-money__up']) expect(uses).toMatch(new RegExp(`\\${cls} \\{\\s*color: var\\(--color-up\\)`));
    for (const cls of ['.market-down', '.pf-down', '.home-money__down']) expect(uses).toMatch(new RegExp(`\\${cls} \\{\\s*color: var\\(--color-down\\)`));
  });
});
