import { act } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { i18n, registerMessages, setLocale } from './i18n';

describe('i18n', () => {
  it('throws on a missing key in tests, so no untranslated text slips through', () => {
    expect(() => i18n.t('no.such.key' as never)).toThrow(/missing key "translation:no.such.key"/);
  });

  it('switches language: loads it, remembers it, and sets <html lang>', async () => {
    await act(() => setLocale('en'));
    expect(i18n.language).toBe('en');
    expect(i18n.t('nav.settings')).toBe('Settings');
    expect(window.localStorage.getItem('MOAT_LOCALE')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('loads an area registered while English is active in English before it resolves', async () => {
    await act(() => setLocale('en'));
    const { homeKo } = await import('@/pages/home/locales/ko');
    i18n.removeResourceBundle('en', 'home');
    await registerMessages('home', { ko: homeKo, en: () => import('@/pages/home/locales/en').then((m) => m.homeEn) });
    expect(i18n.t('title', { ns: 'home' })).toBe('Markets today');
    await act(() => setLocale('ko'));
    expect(i18n.t('title', { ns: 'home' })).toBe('오늘의 시장');
  });

  it('follows a language chosen in another tab', async () => {
    window.localStorage.setItem('MOAT_LOCALE', 'en');
    await act(async () => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'MOAT_LOCALE', newValue: 'en' }));
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    await vi.waitFor(() => expect(i18n.language).toBe('en'));
    expect(document.documentElement.lang).toBe('en');
  });
});
