import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetClock } from '@/shared/session/clock-measure';
import { i18n, initI18n } from '@/shared/i18n/i18n';
import { XhrOverFetch } from './fetch';

// jsdom does not scroll; scroll restoration calls this on every navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

// Uploads with progress (CSV imports) use XHR: answered by the same fetch mocks.
window.XMLHttpRequest = XhrOverFetch as unknown as typeof XMLHttpRequest;

// `findBy…` waits up to 5 s, not 1: the first test of a file loads lazy chunks, which
// takes over a second on a busy 2-core CI machine.
configure({ asyncUtilTimeout: 5000 });

// Korean, as in production; a test that switches language is reset below.
await initI18n();

beforeEach(async () => {
  window.localStorage.clear();
  if (i18n.language !== 'ko') await i18n.changeLanguage('ko');
  document.documentElement.lang = 'ko';
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  resetClock();
  delete window.ReactNativeWebView;
});
