/**
 * The error drop list of spec §8: errors that say nothing about the app (the network, the
 * browser, its extensions, a crawler) and are never reported. This is the one place it is
 * written; the browser applies it before anything reaches the recorder, and the server's
 * ingest mirrors the same data (`DROP_RULES`) for clients that bypass the browser filter.
 *
 * Each rule is plain data, portable between JavaScript `RegExp` and Rust's `regex` crate
 * (no look-around, no back-references; `\b` only next to ASCII letters). The list, as
 * `name` (field): pattern, every pattern matched case-insensitively, the specific ones first:
 *
 * - `chunk-load` (message): `Loading (?:CSS )?chunk|ChunkLoadError|Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS`
 * - `service-worker` (message): `service ?worker`
 * - `browser-extension` (any): `(?:chrome|moz|safari(?:-web)?|ms-browser)-extension://`
 * - `resize-observer` (message): `ResizeObserver loop`
 * - `failed-fetch` (message): `Failed to fetch|NetworkError when attempting to fetch resource|Load failed`
 * - `network-request-failed` (message): `Network request failed`
 * - `aborted-request` (message): `AbortError|aborted a request|operation was aborted|signal is aborted|Fetch is aborted|\bcancell?ed\b|CancelledError|취소됨`
 * - `memory-or-quota` (message): `QuotaExceeded|exceeded the quota|quota (?:has been )?exceeded|out of memory|NS_ERROR_OUT_OF_MEMORY`
 * - `invalid-session-ko` (message): `로그인이 만료되었습니다|유효하지 않은 세션`
 * - `native-bridge-focus` (message): `IS_FOCUSED_FROM_APP=`
 * - `native-bridge-json` (message): `\{\s*\\?"type\\?"\s*:\s*\\?"(?:NAVIGATE|DEEP_LINK|GO_BACK|SHARE_IMAGE|LOADING|HAPTIC_FEEDBACK|DIMMER_ON|DIMMER_OFF|LOCAL_STORAGE_SET)\\?"`
 * - `crawler` (userAgent): `Yeti|Googlebot|AdsBot|Mediapartners-Google|bingbot|Daumoa|Baiduspider|YandexBot|DuckDuckBot|Slurp|Applebot|facebookexternalhit|Twitterbot|kakaotalk-scrap|PetalBot|SemrushBot|AhrefsBot|GPTBot|Bytespider`
 *
 * Fields, and where the ingest finds them in the recorder's error objects
 * (design/recorder-protocol.md): `message` is the error's `event`; `any` is the message or
 * the stack, i.e. `source` and every `stackTrace[].fileName`; `userAgent` is the
 * `User-Agent` of the request that carried the session. Match case-insensitively
 * (`RegexBuilder::case_insensitive(true)` in Rust) and unanchored: the recorder's `event`
 * may be the message JSON-encoded (`"\"Failed to fetch\""`), which every pattern allows.
 */
import { BRIDGE_ACTION_TYPES } from '@/shared/bridge/actions';
import { FOCUS_MESSAGE_TRUE } from '@/shared/config/constants';

/** What a rule looks at. */
export type DropField = 'message' | 'any' | 'userAgent';

/** One entry of the drop list, as data the server mirrors. */
export interface DropRule {
  /** Stable name (kebab-case), the same on the server. */
  name: string;
  field: DropField;
  /** Regular expression source, matched case-insensitively anywhere in the field. */
  pattern: string;
}

/** An error as the reporter sees it. */
export interface ReportedError {
  /** `Name: message` (or the message alone). */
  message: string;
  /** Stack trace, or the frames' file names, one a line. */
  stack?: string | undefined;
  userAgent?: string | undefined;
}

/** The focus messages' common prefix: `IS_FOCUSED_FROM_APP=`. */
const FOCUS_MESSAGE_PREFIX = FOCUS_MESSAGE_TRUE.slice(0, FOCUS_MESSAGE_TRUE.indexOf('=') + 1);

/**
 * Search-engine and link-preview crawlers (spec §8). Named ones only: a bare "bot" would
 * also match phone makers' user agents (CUBOT), and headless browsers under the test
 * runner must still record (spec §4).
 */
export const CRAWLER_NAMES = [
  'Yeti', // Naver
  'Googlebot',
  'AdsBot', // AdsBot-Google, AdsBot-Google-Mobile
  'Mediapartners-Google',
  'bingbot',
  'Daumoa', // Daum (not "DaumApps", the Daum app's own browser)
  'Baiduspider',
  'YandexBot',
  'DuckDuckBot',
  'Slurp', // Yahoo
  'Applebot',
  'facebookexternalhit',
  'Twitterbot',
  'kakaotalk-scrap', // KakaoTalk link previews (not "KAKAOTALK", its in-app browser)
  'PetalBot',
  'SemrushBot',
  'AhrefsBot',
  'GPTBot',
  'Bytespider',
] as const;

/** The drop list of spec §8, one rule per kind of noise. */
export const DROP_RULES: readonly DropRule[] = [
  {
    name: 'chunk-load',
    field: 'message',
    // Webpack-style names, and Chrome, Safari, Firefox and Vite for dynamic imports.
    pattern:
      'Loading (?:CSS )?chunk|ChunkLoadError|Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS',
  },
  { name: 'service-worker', field: 'message', pattern: 'service ?worker' },
  { name: 'browser-extension', field: 'any', pattern: '(?:chrome|moz|safari(?:-web)?|ms-browser)-extension://' },
  { name: 'resize-observer', field: 'message', pattern: 'ResizeObserver loop' },
  {
    name: 'failed-fetch',
    field: 'message',
    // Chrome, Firefox, Safari.
    pattern: 'Failed to fetch|NetworkError when attempting to fetch resource|Load failed',
  },
  { name: 'network-request-failed', field: 'message', pattern: 'Network request failed' },
  {
    name: 'aborted-request',
    field: 'message',
    // AbortController in each engine; Safari says "cancelled" (Korean "취소됨"); TanStack Query's cancellation.
    pattern:
      'AbortError|aborted a request|operation was aborted|signal is aborted|Fetch is aborted|\\bcancell?ed\\b|CancelledError|취소됨',
  },
  {
    name: 'memory-or-quota',
    field: 'message',
    pattern: 'QuotaExceeded|exceeded the quota|quota (?:has been )?exceeded|out of memory|NS_ERROR_OUT_OF_MEMORY',
  },
  {
    name: 'invalid-session-ko',
    field: 'message',
    // The app's own text for an ended session (auth.sessionEnded, errors.token_invalid), and the usual phrase.
    pattern: '로그인이 만료되었습니다|유효하지 않은 세션',
  },
  { name: 'native-bridge-focus', field: 'message', pattern: FOCUS_MESSAGE_PREFIX },
  {
    name: 'native-bridge-json',
    field: 'message',
    // `{"type":"<ACTION>",…}`, raw or JSON-encoded once more (escaped quotes).
    pattern: `\\{\\s*\\\\?"type\\\\?"\\s*:\\s*\\\\?"(?:${BRIDGE_ACTION_TYPES.join('|')})\\\\?"`,
  },
  { name: 'crawler', field: 'userAgent', pattern: CRAWLER_NAMES.join('|') },
];

const compiled = DROP_RULES.map((rule) => ({ rule, re: new RegExp(rule.pattern, 'i') }));

function fieldValues(field: DropField, error: ReportedError): (string | undefined)[] {
  switch (field) {
    case 'message':
      return [error.message];
    case 'any':
      return [error.message, error.stack];
    case 'userAgent':
      return [error.userAgent];
  }
}

/** The first rule that drops `error`, if any. */
export function matchDropRule(error: ReportedError): DropRule | undefined {
  return compiled.find(({ rule, re }) => fieldValues(rule.field, error).some((v) => !!v && re.test(v)))?.rule;
}

/** Whether `error` is noise that must not be reported (spec §8). */
export function shouldDropError(error: ReportedError): boolean {
  return matchDropRule(error) !== undefined;
}

/** Whether `userAgent` is a search-engine or link-preview crawler (spec §8). */
export function isCrawler(userAgent: string): boolean {
  return compiled.some(({ rule, re }) => rule.field === 'userAgent' && re.test(userAgent));
}
