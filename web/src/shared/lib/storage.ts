/**
 * The only module that touches `localStorage` (spec §3: the keys are part of the contract).
 *
 * Every key is defined once below with its value type and its codec. Reads are tolerant:
 * a missing or corrupt value reads as `undefined`, and an unavailable `localStorage`
 * (Safari private mode, disabled storage, quota errors) never throws.
 */

/** Turns a stored string into a value (`undefined` when corrupt) and back. */
export interface Codec<T> {
  parse(raw: string): T | undefined;
  serialize(value: T): string;
}

/** Product prefix of the `{product}_…` keys of spec §3. */
const PREFIX = 'MOAT';

// --- codecs ------------------------------------------------------------------------------

/** Any string, stored as is. */
const text: Codec<string> = { parse: (raw) => raw, serialize: (v) => v };

/** A non-blank identifier, stored as is. */
const id: Codec<string> = { parse: (raw) => (raw.trim() === '' ? undefined : raw), serialize: (v) => v };

/** `"true"` / `"false"`; anything else is corrupt. */
const bool: Codec<boolean> = {
  parse: (raw) => (raw === 'true' ? true : raw === 'false' ? false : undefined),
  serialize: (v) => String(v),
};

/** One of a fixed set of strings, stored as is. */
function oneOf<const T extends string>(values: readonly T[]): Codec<T> {
  return {
    parse: (raw) => (values as readonly string[]).includes(raw) ? (raw as T) : undefined,
    serialize: (v) => v,
  };
}

/** A JSON value that passes `guard`. */
function json<T>(guard: (v: unknown) => v is T): Codec<T> {
  return {
    parse: (raw) => {
      try {
        const v: unknown = JSON.parse(raw);
        return guard(v) ? v : undefined;
      } catch {
        return undefined;
      }
    },
    serialize: (v) => JSON.stringify(v),
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isStringRecord = (v: unknown): v is Record<string, string> =>
  isRecord(v) && Object.values(v).every((s) => typeof s === 'string');
const isOneOf = <T extends string>(values: readonly T[], v: unknown): v is T =>
  (values as readonly unknown[]).includes(v);

/** JSON array of strings, e.g. `["005930","AAPL"]`. */
const stringList = json(isStringArray);

/** Compact JWT `header.payload.signature` (base64url segments), stored raw. */
const jwt: Codec<string> = {
  parse: (raw) => (/^[\w-]+\.[\w-]+\.[\w-]*$/.test(raw) ? raw : undefined),
  serialize: (v) => v,
};

/** Non-negative decimal string such as `"1250000"` or `"1234.56"` (never a float). */
const decimal: Codec<string> = {
  parse: (raw) => (/^\d+(\.\d+)?$/.test(raw) ? raw : undefined),
  serialize: (v) => v,
};

// --- value types -------------------------------------------------------------------------

export const LOCALES = ['ko', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * Last log-in platform: `"email"`, or the id of an OpenID provider configured by the
 * operator (`[[auth.oidc]] id`, e.g. `"kakao"`, `"google"`, `"corp-sso"`).
 */
export type LoginPlatform = 'email' | (string & {});

/** `"email"` or a provider id: a letter or digit, then up to 63 letters, digits, `_`, `-`, `.`. */
const loginPlatform: Codec<LoginPlatform> = {
  parse: (raw) => (/^[A-Za-z0-9][\w.-]{0,63}$/.test(raw) ? raw : undefined),
  serialize: (v) => v,
};

export const COUNTRY_FILTERS = ['KR', 'US', 'ALL'] as const;
export type CountryFilter = (typeof COUNTRY_FILTERS)[number];

export const CURRENCY_MODES = ['ORIGINAL', 'KRW', 'USD'] as const;
export type CurrencyMode = (typeof CURRENCY_MODES)[number];

export const COMMUNITY_TABS = ['following', 'latest', 'popular', 'influencers'] as const;
export type CommunityTab = (typeof COMMUNITY_TABS)[number];

export const PORTFOLIO_SORT_KEYS = ['value', 'return', 'dailyChange', 'name'] as const;
export type PortfolioSort = { key: (typeof PORTFOLIO_SORT_KEYS)[number]; dir: 'asc' | 'desc' };

export const LOAN_REPAYMENT_METHODS = ['equalInstallment', 'equalPrincipal', 'bullet'] as const;
/** Last inputs of the loan-interest calculator: the raw text of each field, plus the method. */
export type LoanCalculatorValues = {
  principal: string;
  annualRatePct: string;
  termMonths: string;
  graceMonths: string;
  method: (typeof LOAN_REPAYMENT_METHODS)[number];
};

/** Draft of a professional-investor application: chosen criteria ids and entered figures by field. */
export type ProfessionalInvestorDraft = { criteria: string[]; figures: Record<string, string> };

const portfolioSort = json(
  (v): v is PortfolioSort => isRecord(v) && isOneOf(PORTFOLIO_SORT_KEYS, v.key) && isOneOf(['asc', 'desc'], v.dir),
);

const loanValues = json(
  (v): v is LoanCalculatorValues =>
    isRecord(v) &&
    typeof v.principal === 'string' &&
    typeof v.annualRatePct === 'string' &&
    typeof v.termMonths === 'string' &&
    typeof v.graceMonths === 'string' &&
    isOneOf(LOAN_REPAYMENT_METHODS, v.method),
);

const professionalDraft = json(
  (v): v is ProfessionalInvestorDraft => isRecord(v) && isStringArray(v.criteria) && isStringRecord(v.figures),
);

// --- keys --------------------------------------------------------------------------------

/** Every fixed key of spec §3 with its codec; the comment gives the stored format. */
const CODECS = {
  /** Raw JWT string (decoded: `exp`, `data.{user_id,nickname,chat_user_id}`). */
  AUTH_TOKEN: jwt,
  /** JSON string[] of instrument ids, newest first, deduplicated. */
  MOAT_RECENT_STOCKS_2: stringList,
  /** `"ko"` | `"en"`. */
  MOAT_LOCALE: oneOf(LOCALES),
  /** Last log-in platform: `"email"` or an OpenID provider id (`"kakao"`, `"google"`, …), stored as is. */
  MOAT_LOGIN_PLATFORM: loginPlatform,
  /** JSON string[] of queries, newest first. */
  MOAT_COMMUNITY_RECENT_SEARCHES: stringList,
  /** User id of the influencer chosen as the timeline filter. */
  MOAT_COMMUNITY_TIMELINE_INFLUENCER: id,
  /** `"true"` hides every amount of the meta portfolio. */
  MOAT_META_PORTFOLIO_LOCK: bool,
  /** `"KR"` | `"US"` | `"ALL"`. */
  MOAT_NEWS_COUNTRY: oneOf(COUNTRY_FILTERS),
  /** `"KR"` | `"US"` | `"ALL"`. */
  MOAT_DIVIDEND_COUNTRY: oneOf(COUNTRY_FILTERS),
  /** `"true"` once the first-run intro was shown. */
  ON_BOARDING_INTRO: bool,
  /** `"true"` while the member chose to hide ads. */
  MOAT_INVISIBLE_ADS: bool,
  /** JSON string[] of queries, newest first. */
  MOAT_NEWS_RECENT_SEARCHES: stringList,
  /** JSON string[] of favourite-asset ids in the member's drag order (pending server sync). */
  MOAT_FAVORITE_ASSETS_REORDER: stringList,
  /** JSON `LoanCalculatorValues`. */
  LOAN_INTEREST_CALCULATOR_VALUES: loanValues,
  /** JSON `ProfessionalInvestorDraft`. */
  PROFESSIONAL_INVESTOR_APPLICATION_OPTION_VALUES: professionalDraft,
  /** Id of the video to resume the feed at. */
  LAST_FOCUSED_VIDEO_ID: id,
  /** JSON `{"key":"value"|"return"|"dailyChange"|"name","dir":"asc"|"desc"}`. */
  PORTFOLIO_SORT: portfolioSort,
  /** `"true"` while an ad-removal reward is active (set by the app). */
  IS_AD_REMOVAL_REWARD_ON: bool,
  /** Non-negative decimal string, in KRW. */
  KB_ORDERABLE_CASH_AMOUNT: decimal,
  /** `"ORIGINAL"` | `"KRW"` | `"USD"`. */
  PORTFOLIO_CURRENCY_MODE: oneOf(CURRENCY_MODES),
  /** Last chat-room search query, any text. */
  CHAT_SEARCH: text,
  /** Id of the chat tab last focused. */
  LAST_FOCUSED_CHAT_TAB: id,
  /** `"true"` = "don't show the asset-verification explanation again". */
  CHAT_ASSET_VERIFY_MODAL_CHECK: bool,
  /** `"following"` | `"latest"` | `"popular"` | `"influencers"`. */
  LAST_FOCUSED_COMMUNITY_TAB: oneOf(COMMUNITY_TABS),
  /** `"true"` when the native app says the member is premium (set by the app). */
  IS_PREMIUM_USER_FROM_WEBVIEW: bool,
} satisfies Record<string, Codec<unknown>>;

/** Name of a fixed storage key; the name is the stored key itself. */
export type StorageName = keyof typeof CODECS;
/** Per-chat notice key: `MOAT_CHAT_NOTICE_<chatId>`. */
export type ChatNoticeKey = `${typeof PREFIX}_CHAT_NOTICE_${string}`;
/** Any key this module manages. */
export type StorageKey = StorageName | ChatNoticeKey;

type CodecValue<C> = C extends Codec<infer T> ? T : never;
/** Value type stored under `K`. */
export type StorageValue<K extends StorageKey> = K extends StorageName ? CodecValue<(typeof CODECS)[K]> : string;

/** Name → key string of every fixed key of spec §3. */
export const STORAGE_KEYS = Object.fromEntries(Object.keys(CODECS).map((k) => [k, k])) as {
  readonly [K in StorageName]: K;
};

const CHAT_NOTICE_PREFIX = `${PREFIX}_CHAT_NOTICE_`;

/**
 * Per-chat notice key. Value: id of the notice the member dismissed in that room
 * (a newer notice has another id and shows again).
 */
export function chatNoticeKey(chatId: string | number): ChatNoticeKey {
  return `${CHAT_NOTICE_PREFIX}${chatId}` as ChatNoticeKey;
}

/** A known key with its codec. */
export interface StorageKeyDef {
  readonly key: StorageKey;
  readonly codec: Codec<unknown>;
}

/** Typed definition of a raw key string, or `undefined` when the key is not one of ours. */
export function storageKeyByName(raw: string): StorageKeyDef | undefined {
  if (Object.hasOwn(CODECS, raw)) return { key: raw as StorageName, codec: CODECS[raw as StorageName] as Codec<unknown> };
  if (raw.startsWith(CHAT_NOTICE_PREFIX) && raw.length > CHAT_NOTICE_PREFIX.length) {
    return { key: raw as ChatNoticeKey, codec: id as Codec<unknown> };
  }
  return undefined;
}

function codecOf<K extends StorageKey>(key: K): Codec<StorageValue<K>> {
  return storageKeyByName(key)!.codec as Codec<StorageValue<K>>;
}

// --- access ------------------------------------------------------------------------------

/** `localStorage`, or `undefined` where touching it throws. */
function store(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** Called with the changed key, or `null` when another tab cleared the storage. */
export type StorageListener = (key: StorageKey | null) => void;
const listeners = new Set<StorageListener>();
const notify = (key: StorageKey) => listeners.forEach((l) => l(key));

/** Value stored under `key`; `undefined` when absent, corrupt or storage is unavailable. */
export function readStorage<K extends StorageKey>(key: K): StorageValue<K> | undefined {
  try {
    const raw = store()?.getItem(key);
    return raw == null ? undefined : codecOf(key).parse(raw);
  } catch {
    return undefined;
  }
}

/** Stores `value` under `key`; returns whether it was persisted. Notifies subscribers. */
export function writeStorage<K extends StorageKey>(key: K, value: StorageValue<K>): boolean {
  try {
    const s = store();
    if (!s) return false;
    s.setItem(key, codecOf(key).serialize(value));
  } catch {
    return false;
  }
  notify(key);
  return true;
}

/** Removes `key`. Notifies subscribers. */
export function removeStorage(key: StorageKey): void {
  try {
    store()?.removeItem(key);
  } catch {
    return;
  }
  notify(key);
}

/**
 * Writes a raw key/value pair from outside the typed code (the app's `LOCAL_STORAGE_SET`).
 * `null` removes the key. Unknown keys and values the key's codec rejects are refused
 * (returns `false`); accepted values are stored in canonical form.
 */
export function writeStorageRaw(rawKey: string, rawValue: string | null): boolean {
  const def = storageKeyByName(rawKey);
  if (!def) return false;
  if (rawValue === null) {
    removeStorage(def.key);
    return true;
  }
  const value = def.codec.parse(rawValue);
  return value !== undefined && writeStorage(def.key, value as never);
}

/**
 * Calls `listener` after every write/remove in this tab and on the window `storage` event
 * (other tabs) for our keys. Returns the unsubscribe function.
 */
export function subscribeStorage(listener: StorageListener): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key === null) listener(null);
    else if (storageKeyByName(e.key)) listener(e.key as StorageKey);
  };
  listeners.add(listener);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
