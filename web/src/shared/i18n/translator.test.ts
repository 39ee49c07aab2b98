import { describe, expect, it, vi } from 'vitest';
import { Translator } from './translator';

type T = (key: string, options?: Record<string, unknown>) => string;

function translator(onMissing?: (lngs: readonly string[], ns: string, key: string) => void) {
  const i18n = new Translator({ fallbackLng: 'ko', defaultNS: 'translation', onMissing });
  i18n.addResourceBundle('ko', 'translation', { nav: { home: '홈', all: '전체' }, hello: '{{name}}님, {{ count }}개' });
  i18n.addResourceBundle('en', 'translation', { nav: { home: 'Home' } });
  i18n.addResourceBundle('ko', 'home', { title: '오늘의 시장' });
  return { i18n, t: i18n.t as unknown as T };
}

describe('Translator', () => {
  it('reads nested keys of the current language, falling back to Korean', async () => {
    const { i18n, t } = translator();
    expect(t('nav.home')).toBe('홈');
    await i18n.changeLanguage('en');
    expect(t('nav.home')).toBe('Home');
    expect(t('nav.all')).toBe('전체');
    expect(t('title', { ns: 'home' })).toBe('오늘의 시장');
  });

  it('knows which keys exist (with the fallback) and reads a raw message of one language', async () => {
    const { i18n } = translator();
    await i18n.changeLanguage('en');
    expect(i18n.exists('nav.home')).toBe(true);
    expect(i18n.exists('nav.all')).toBe(true);
    expect(i18n.exists('nav.missing')).toBe(false);
    expect(i18n.exists('title', { ns: 'home' })).toBe(true);
    expect(i18n.exists('nav', {})).toBe(false);
    expect(i18n.getResource('ko', 'translation', 'hello')).toBe('{{name}}님, {{ count }}개');
    expect(i18n.getResource('en', 'translation', 'nav.all')).toBeUndefined();
  });

  it('fills placeholders, an absent value as nothing', () => {
    const { t } = translator();
    expect(t('hello', { name: '개미', count: 3 })).toBe('개미님, 3개');
    expect(t('hello', { name: '개미' })).toBe('개미님, 개');
  });

  it('reports a missing key and answers the default value, else the key', () => {
    const onMissing = vi.fn();
    const { t } = translator(onMissing);
    expect(t('nav.nothing')).toBe('nav.nothing');
    expect(t('nav', {})).toBe('nav');
    expect(t('roles.x', { defaultValue: 'x' })).toBe('x');
    expect(onMissing).toHaveBeenCalledWith(['ko'], 'translation', 'nav.nothing');
    expect(onMissing).toHaveBeenCalledTimes(3);
  });

  it('tells listeners of a change of language, once, until they stop listening', async () => {
    const { i18n } = translator();
    const listener = vi.fn();
    const stop = i18n.on('languageChanged', listener);
    await i18n.changeLanguage('en');
    await i18n.changeLanguage('en');
    stop();
    await i18n.changeLanguage('ko');
    expect(listener.mock.calls).toEqual([['en']]);
  });

  it('fixes a language and a namespace with getFixedT, bundles come and go', () => {
    const { i18n } = translator();
    expect(i18n.getFixedT('en')('nav.home')).toBe('Home');
    expect(i18n.getFixedT(null, 'home')('title')).toBe('오늘의 시장');
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(true);
    i18n.removeResourceBundle('en', 'translation');
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(false);
    expect(i18n.getFixedT('en')('nav.home')).toBe('홈');
  });
});
