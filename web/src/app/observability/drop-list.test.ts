import { describe, expect, it } from 'vitest';
import { BRIDGE_ACTION_TYPES, encodeBridgeAction } from '@/shared/bridge/actions';
import { FOCUS_MESSAGE_FALSE, FOCUS_MESSAGE_TRUE } from '@/shared/config/constants';
import { ko } from '@/shared/i18n/locales/ko';
import { DROP_LIST_KEEPS, DROP_RULES, isCrawler, matchDropRule, shouldDropError, type DropRule, type ReportedError } from './drop-list';

const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** The rule that drops `error`, by name. */
const ruleOf = (error: ReportedError) => matchDropRule(error)?.name;
const message = (text: string) => ruleOf({ message: text });

describe('drop list (spec §8)', () => {
  it('failed-fetch: every engine’s words for a fetch that never got an answer', () => {
    expect(message('TypeError: Failed to fetch')).toBe('failed-fetch');
    expect(message('TypeError: NetworkError when attempting to fetch resource.')).toBe('failed-fetch');
    expect(message('TypeError: Load failed')).toBe('failed-fetch');
    // As the recorder's `event`: JSON-encoded.
    expect(message('"Failed to fetch"')).toBe('failed-fetch');
  });

  it('network-request-failed', () => {
    expect(message('TypeError: Network request failed')).toBe('network-request-failed');
  });

  it('aborted-request: aborted and cancelled requests, in English and Korean', () => {
    expect(message('AbortError: The user aborted a request.')).toBe('aborted-request');
    expect(message('AbortError: signal is aborted without reason')).toBe('aborted-request');
    expect(message('The operation was aborted.')).toBe('aborted-request');
    expect(message('cancelled')).toBe('aborted-request');
    expect(message('TypeError: canceled')).toBe('aborted-request');
    expect(message('취소됨')).toBe('aborted-request');
    expect(message('CancelledError')).toBe('aborted-request');
  });

  it('service-worker', () => {
    expect(message("Failed to register a ServiceWorker for scope ('/') with script ('/sw.js')")).toBe('service-worker');
    expect(message('The service worker navigation preload request was cancelled')).toBe('service-worker');
  });

  it('browser-extension: in the message or in any stack frame', () => {
    expect(message("Cannot read properties of undefined (reading 'x') at chrome-extension://abc/content.js:1:2")).toBe(
      'browser-extension',
    );
    for (const scheme of ['chrome', 'moz', 'safari', 'safari-web']) {
      expect(ruleOf({ message: 'TypeError: x is null', stack: `f@${scheme}-extension://id/inject.js:10:3` })).toBe(
        'browser-extension',
      );
    }
  });

  it('chunk-load: lazy chunks and dynamic imports that failed to load', () => {
    for (const text of [
      'Loading chunk 42 failed.',
      'Loading CSS chunk 7 failed.',
      'ChunkLoadError: Loading chunk vendors failed',
      'TypeError: Failed to fetch dynamically imported module: https://moat.example/assets/HomePage-abc.js',
      'TypeError: Importing a module script failed.',
      'TypeError: error loading dynamically imported module',
      'Unable to preload CSS for /assets/HomePage-abc.css',
    ]) {
      expect(message(text), text).toBe('chunk-load');
    }
  });

  it('resize-observer: the loop notices', () => {
    expect(message('ResizeObserver loop limit exceeded')).toBe('resize-observer');
    expect(message('ResizeObserver loop completed with undelivered notifications.')).toBe('resize-observer');
  });

  it('memory-or-quota', () => {
    expect(message('QuotaExceededError: The quota has been exceeded.')).toBe('memory-or-quota');
    expect(message("Failed to execute 'setItem' on 'Storage': Setting the value of 'x' exceeded the quota.")).toBe(
      'memory-or-quota',
    );
    expect(message('RangeError: Out of memory')).toBe('memory-or-quota');
    expect(message('NS_ERROR_OUT_OF_MEMORY')).toBe('memory-or-quota');
  });

  it('invalid-session-ko: the Korean message the app shows for an ended session', () => {
    expect(message(ko.auth.sessionEnded)).toBe('invalid-session-ko');
    expect(message(`Error: ${ko.auth.sessionEnded}`)).toBe('invalid-session-ko');
    expect(message('유효하지 않은 세션입니다.')).toBe('invalid-session-ko');
  });

  it('native-bridge-focus: the app’s focus messages are never errors', () => {
    expect(message(FOCUS_MESSAGE_TRUE)).toBe('native-bridge-focus');
    expect(message(FOCUS_MESSAGE_FALSE)).toBe('native-bridge-focus');
    // A third-party script that JSON.parse-d the raw message.
    expect(message(`SyntaxError: Unexpected token 'I', "${FOCUS_MESSAGE_TRUE}" is not valid JSON`)).toBe(
      'native-bridge-focus',
    );
  });

  it('native-bridge-json: every bridge action, raw or JSON-encoded again', () => {
    const samples = {
      NAVIGATE: { type: 'NAVIGATE', payload: { path: '/' } },
      DEEP_LINK: { type: 'DEEP_LINK', payload: { url: 'https://example.com' } },
      GO_BACK: { type: 'GO_BACK', payload: null },
      SHARE_IMAGE: { type: 'SHARE_IMAGE', payload: { dataUrl: 'data:', fileName: 'a.png' } },
      LOADING: { type: 'LOADING', payload: { visible: true } },
      HAPTIC_FEEDBACK: { type: 'HAPTIC_FEEDBACK', payload: { style: 'light' } },
      DIMMER_ON: { type: 'DIMMER_ON', payload: {} },
      DIMMER_OFF: { type: 'DIMMER_OFF', payload: null },
      LOCAL_STORAGE_SET: { type: 'LOCAL_STORAGE_SET', payload: { key: 'MOAT_LOCALE', value: 'ko' } },
    } as const;
    expect(Object.keys(samples).sort()).toEqual([...BRIDGE_ACTION_TYPES].sort());
    for (const action of Object.values(samples)) {
      const raw = encodeBridgeAction(action);
      expect(message(raw), raw).toBe('native-bridge-json');
      expect(message(JSON.stringify(raw)), raw).toBe('native-bridge-json');
    }
    expect(message('{ "type" : "LOCAL_STORAGE_SET" }')).toBe('native-bridge-json');
  });

  it('crawler: search-engine and link-preview crawlers, by user agent', () => {
    for (const ua of [
      'Mozilla/5.0 (compatible; Yeti/1.1; +https://naver.me/spd)',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'AdsBot-Google (+http://www.google.com/adsbot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'Mozilla/5.0 (compatible; Daumoa/4.0; +http://cs.daum.net/faq/15/4118.html)',
      'facebookexternalhit/1.1; kakaotalk-scrap/1.0; +https://devtalk.kakao.com/',
    ]) {
      expect(ruleOf({ message: 'TypeError: x is undefined', userAgent: ua }), ua).toBe('crawler');
      expect(isCrawler(ua), ua).toBe(true);
    }
  });

  it('has exactly the rules tested above, each with a unique name', () => {
    expect(DROP_RULES.map((r) => r.name)).toEqual([
      'chunk-load',
      'service-worker',
      'browser-extension',
      'resize-observer',
      'failed-fetch',
      'network-request-failed',
      'aborted-request',
      'memory-or-quota',
      'invalid-session-ko',
      'native-bridge-focus',
      'native-bridge-json',
      'crawler',
    ]);
  });

  it('uses only syntax that Rust’s regex crate shares (no look-around, no back-references)', () => {
    for (const rule of DROP_RULES) {
      for (const pattern of rule.patterns) expect(pattern, rule.name).not.toMatch(/\(\?<?[=!]|\\[1-9]|\\k</);
    }
  });
});

describe('the shared list (drop-list.json, also the server’s)', () => {
  const field = (rule: DropRule, text: string): ReportedError =>
    rule.field === 'userAgent' ? { message: 'TypeError: x is undefined', userAgent: text } : { message: text };

  it.each(DROP_RULES.map((rule) => [rule.name, rule] as const))('%s drops each of its samples', (_, rule) => {
    for (const text of rule.drops) expect(ruleOf(field(rule, text)), text).toBe(rule.name);
  });

  it.each(DROP_RULES.map((rule) => [rule.name, rule] as const))('%s: every pattern is exercised by a sample', (_, rule) => {
    for (const pattern of rule.patterns) {
      const re = new RegExp(pattern, 'i');
      expect(
        rule.drops.some((text) => re.test(text)),
        pattern,
      ).toBe(true);
    }
  });

  it.each(DROP_LIST_KEEPS.map((text) => [text]))('keeps %s, as a message, a stack and a user agent', (text) => {
    expect(shouldDropError({ message: text, stack: text, userAgent: text })).toBe(false);
    expect(isCrawler(text)).toBe(false);
  });

  it('keeps app errors reported with an app stack from an ordinary browser', () => {
    expect(
      shouldDropError({
        message: 'Error: portfolio 12 not found',
        stack: 'at render (https://moat.example/assets/index-abc.js:1:2)',
        userAgent: CHROME_UA,
      }),
    ).toBe(false);
  });
});
