/**
 * One message instance for the app (`./translator`: i18next's behaviour for what the app
 * uses, typed by i18next's types). The shell's Korean messages (the source locale) are
 * bundled; each area registers its own namespace when its code loads, so the first page
 * carries only the texts it shows. Every other locale is a dynamic import, loaded before
 * the language switches to it. The chosen locale is kept in `MOAT_LOCALE`, and
 * `<html lang>` follows the active language.
 */
import type { CustomTypeOptions } from 'i18next';
import { LOCALES, STORAGE_KEYS, readStorage, subscribeStorage, writeStorage, type Locale } from '@/shared/lib/storage';
import { ko } from './locales/ko';
import { Translator } from './translator';
import type { MessageShape } from './types';

export type { Locale };
export { LOCALES };

/** The spec's default language. */
export const DEFAULT_LOCALE: Locale = 'ko';

/** Each locale's own name, shown the same whatever the current language. */
export const LOCALE_NAMES: Record<Locale, string> = { ko: '한국어', en: 'English' };

type Resources = CustomTypeOptions['resources'];
/** An area's namespace (the shell's is `translation`). */
export type AreaNamespace = Exclude<keyof Resources, 'translation'>;

/** An area's messages: Korean bundled with the area's code, other locales loaded on demand. */
export interface AreaMessages<N extends AreaNamespace> {
  ko: Resources[N];
  en: () => Promise<MessageShape<Resources[N]>>;
}

type Loaders = Record<Locale, () => Promise<object>>;

/** Every namespace known so far, with how to load each locale. */
const registry = new Map<string, Loaders>([
  ['translation', { ko: () => Promise.resolve(ko), en: () => import('./locales/en').then((m) => m.en) }],
]);

const isTest = import.meta.env.MODE === 'test';

export const i18n = new Translator({
  fallbackLng: 'ko',
  defaultNS: 'translation',
  // A key missing from the source locale is a bug: fail loudly in tests.
  onMissing: isTest
    ? (lngs, ns, key) => {
        throw new Error(`i18n: missing key "${ns}:${key}" (${lngs.join(', ')})`);
      }
    : undefined,
});
i18n.addResourceBundle('ko', 'translation', ko);

export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}

/** The active locale (the default until i18n is initialised). */
export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/** The locale being switched to, while a switch is loading. */
let switchingTo: Locale | undefined;

async function load(locale: Locale, ns: string, loaders: Loaders): Promise<void> {
  if (i18n.hasResourceBundle(locale, ns)) return;
  const messages = await loaders[locale]();
  if (!i18n.hasResourceBundle(locale, ns)) i18n.addResourceBundle(locale, ns, messages);
}

/** Loads every registered namespace of `locale`. */
function ensureLoaded(locale: Locale): Promise<unknown> {
  return Promise.all([...registry].map(([ns, loaders]) => load(locale, ns, loaders)));
}

/** Loads `locale` if needed and switches to it, without storing the choice. */
async function activate(locale: Locale): Promise<void> {
  switchingTo = locale;
  try {
    await ensureLoaded(locale);
    if (i18n.language !== locale) await i18n.changeLanguage(locale);
  } finally {
    if (switchingTo === locale) switchingTo = undefined;
  }
  document.documentElement.lang = locale;
}

/** Switches the app to `locale` and remembers the choice in `MOAT_LOCALE`. */
export async function setLocale(locale: Locale): Promise<void> {
  await activate(locale);
  writeStorage(STORAGE_KEYS.MOAT_LOCALE, locale);
}

/**
 * Registers an area's namespace. Call it at the top level of the area's code, awaited
 * (`await registerMessages('home', …)`), so the area renders only once its texts for the
 * current language are there.
 */
export async function registerMessages<N extends AreaNamespace>(ns: N, messages: AreaMessages<N>): Promise<void> {
  const loaders: Loaders = { ko: () => Promise.resolve(messages.ko), en: messages.en };
  registry.set(ns, loaders);
  const locales = new Set<Locale>([DEFAULT_LOCALE, currentLocale(), ...(switchingTo ? [switchingTo] : [])]);
  await Promise.all([...locales].map((locale) => load(locale, ns, loaders)));
}

let initialising: Promise<void> | undefined;

/**
 * Initialises i18n with the stored locale (else Korean). Resolves once the locale's
 * messages are loaded, so the first render is already in the right language.
 * Safe to call more than once.
 */
export function initI18n(): Promise<void> {
  initialising ??= (async () => {
    i18n.on('languageChanged', (lng) => {
      if (isLocale(lng)) document.documentElement.lang = lng;
    });
    // Another tab (or the app through LOCAL_STORAGE_SET) chose a language.
    subscribeStorage((key) => {
      if (key !== STORAGE_KEYS.MOAT_LOCALE) return;
      const stored = readStorage(STORAGE_KEYS.MOAT_LOCALE);
      if (stored && stored !== i18n.language) void activate(stored);
    });
    await activate(readStorage(STORAGE_KEYS.MOAT_LOCALE) ?? DEFAULT_LOCALE);
  })();
  return initialising;
}
