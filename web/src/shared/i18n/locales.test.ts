import { describe, expect, it } from 'vitest';

/** Every `locales/{ko,en}.ts` pair of the app: the shell's and each area's. */
const modules = import.meta.glob<Record<string, object>>('/src/**/locales/**/{ko,en}.ts', { eager: true });
const pairs = new Map<string, { ko?: object; en?: object }>();
for (const [path, mod] of Object.entries(modules)) {
  const dir = path.slice(0, path.lastIndexOf('/'));
  const lang = path.endsWith('/ko.ts') ? 'ko' : 'en';
  const messages = Object.values(mod)[0];
  pairs.set(dir, { ...pairs.get(dir), [lang]: messages });
}

/** Every leaf key as a dotted path, with its value. */
function leaves(tree: object, prefix = ''): [string, unknown][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

describe('locales', () => {
  it('finds the shell and area message files', () => {
    expect([...pairs.keys()].sort()).toEqual(
      [
        '/src/app/observability/locales',
        '/src/entities/instrument/locales',
        '/src/features/auth/locales',
        '/src/features/dividends/locales',
        '/src/features/favorites/locales',
        '/src/features/news/locales',
        '/src/features/operator/locales',
        '/src/features/operator/locales/observe',
        '/src/features/overview/locales',
        '/src/features/portfolio/locales',
        '/src/features/search/locales',
        '/src/features/settings/locales',
        '/src/features/stock/locales',
        '/src/pages/home/locales',
        '/src/pages/stock/locales',
        '/src/shared/api/locales',
        '/src/shared/i18n/locales',
      ].sort(),
    );
  });

  describe.each([...pairs])('%s', (_dir, { ko, en }) => {
    it('has Korean and English', () => {
      expect(ko).toBeTypeOf('object');
      expect(en).toBeTypeOf('object');
    });

    it('English has exactly the keys of Korean', () => {
      expect(leaves(en!).map(([k]) => k).sort()).toEqual(leaves(ko!).map(([k]) => k).sort());
    });

    it('every message is a non-empty string', () => {
      for (const [key, value] of [...leaves(ko!), ...leaves(en!)]) {
        expect(typeof value, key).toBe('string');
        expect((value as string).trim(), key).not.toBe('');
      }
    });

    it('interpolations match between languages', () => {
      const vars = (s: unknown) => [...String(s).matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
      const enByKey = new Map(leaves(en!));
      for (const [key, value] of leaves(ko!)) expect(vars(enByKey.get(key)), key).toEqual(vars(value));
    });
  });
});
