/**
 * The app's message runtime: the part of i18next the app uses, in about 1 KiB gzip
 * instead of i18next's 15 and react-i18next's 3, on the first page. Keys stay typed by
 * i18next's own types (`TFunction`, checked against the Korean source messages through
 * `src/app/i18next.d.ts`); only the runtime is this one. What it does, as i18next does
 * with the options the app set (`shared/i18n/i18n.ts`):
 *
 * - messages are bundles per language and namespace (`addResourceBundle`), nested
 *   objects whose keys are read with `.` between levels (`nav.settings`);
 * - a key missing from the language falls back to the fallback language (Korean), then
 *   to `defaultValue`, then to the key itself, and is reported to `onMissing` (tests
 *   throw);
 * - `{{name}}` takes the value of `name` (not escaped: React escapes), an absent value
 *   gives an empty string;
 * - `changeLanguage` switches and tells `languageChanged` listeners.
 *
 * Not supported, because no message uses them: plural suffixes (`_one`), context,
 * nesting (`$t(…)`), formats (`{{x, number}}`), `ns:key` keys. `count` is a value like
 * any other.
 */
import type { i18n as I18next } from 'i18next';

/** A namespace's messages: strings, or nested groups of them. */
export interface MessageTree {
  readonly [key: string]: string | MessageTree;
}

/** What `t` takes besides the values of its placeholders. */
interface TOptions {
  ns?: string;
  lng?: string;
  defaultValue?: string;
  [value: string]: unknown;
}

type Translate = (key: string, options?: TOptions) => string;

export interface TranslatorOptions {
  /** The language tried when a key is missing from the current one. */
  fallbackLng: string;
  /** The namespace of keys `t` is given without `ns`. */
  defaultNS: string;
  /** Called with the languages tried, the namespace and the key of a missing message. */
  onMissing?: (languages: readonly string[], ns: string, key: string) => void;
}

const PLACEHOLDER = /\{\{(.+?)\}\}/g;

export class Translator {
  /** The current language (the fallback until `changeLanguage`). */
  language: string;
  private readonly bundles = new Map<string, MessageTree>();
  private readonly listeners = new Set<(language: string) => void>();

  constructor(private readonly options: TranslatorOptions) {
    this.language = options.fallbackLng;
  }

  hasResourceBundle(lng: string, ns: string): boolean {
    return this.bundles.has(`${lng}|${ns}`);
  }

  addResourceBundle(lng: string, ns: string, messages: object): void {
    this.bundles.set(`${lng}|${ns}`, messages as MessageTree);
  }

  removeResourceBundle(lng: string, ns: string): void {
    this.bundles.delete(`${lng}|${ns}`);
  }

  /** Switches to `lng` and tells the listeners (only when it changes). */
  changeLanguage(lng: string): Promise<void> {
    if (lng !== this.language) {
      this.language = lng;
      for (const listener of [...this.listeners]) listener(lng);
    }
    return Promise.resolve();
  }

  /** Listens for language changes; returns the function that stops listening. */
  on(_event: 'languageChanged', listener: (language: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The message `key` (of `options.ns`, in `options.lng`), its placeholders filled. */
  readonly t = ((key: string, options: TOptions = {}): string => {
    const ns = options.ns ?? this.options.defaultNS;
    const languages = [...new Set([options.lng ?? this.language, this.options.fallbackLng])];
    for (const lng of languages) {
      const found = lookup(this.bundles.get(`${lng}|${ns}`), key);
      if (found !== undefined) return fill(found, options);
    }
    this.options.onMissing?.(languages, ns, key);
    return options.defaultValue !== undefined ? fill(options.defaultValue, options) : key;
  }) as Translate as unknown as I18next['t'];

  /** Whether `key` has a message (in `options.lng` or the current language, else the fallback). */
  exists(key: string, options: { ns?: string; lng?: string } = {}): boolean {
    const ns = options.ns ?? this.options.defaultNS;
    return [options.lng ?? this.language, this.options.fallbackLng].some(
      (lng) => lookup(this.bundles.get(`${lng}|${ns}`), key) !== undefined,
    );
  }

  /** The raw message `key` of `ns` in `lng` exactly (no fallback, placeholders unfilled). */
  getResource(lng: string, ns: string, key: string): string | undefined {
    return lookup(this.bundles.get(`${lng}|${ns}`), key);
  }

  /** `t` with its language (`null`: the current one) and namespace fixed. */
  getFixedT(lng: string | null, ns?: string): Translate {
    const t = this.t as unknown as Translate;
    return (key, options) => t(key, { ...(lng ? { lng } : {}), ...(ns ? { ns } : {}), ...options });
  }
}

function lookup(tree: MessageTree | undefined, key: string): string | undefined {
  let node: string | MessageTree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function fill(message: string, values: TOptions): string {
  return message.includes('{{')
    ? message.replace(PLACEHOLDER, (_, name: string) => {
        const value = values[name.trim()];
        return value === undefined || value === null ? '' : String(value as string);
      })
    : message;
}
