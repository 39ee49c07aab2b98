import {
  STORAGE_KEYS,
  chatNoticeKey,
  readStorage,
  removeStorage,
  storageKeyByName,
  subscribeStorage,
  writeStorage,
  writeStorageRaw,
  type StorageKey,
} from './storage';

const SPEC_KEYS = [
  'AUTH_TOKEN',
  'MOAT_RECENT_STOCKS_2',
  'MOAT_LOCALE',
  'MOAT_LOGIN_PLATFORM',
  'MOAT_COMMUNITY_RECENT_SEARCHES',
  'MOAT_COMMUNITY_TIMELINE_INFLUENCER',
  'MOAT_META_PORTFOLIO_LOCK',
  'MOAT_NEWS_COUNTRY',
  'MOAT_DIVIDEND_COUNTRY',
  'ON_BOARDING_INTRO',
  'MOAT_INVISIBLE_ADS',
  'MOAT_NEWS_RECENT_SEARCHES',
  'MOAT_FAVORITE_ASSETS_REORDER',
  'LOAN_INTEREST_CALCULATOR_VALUES',
  'PROFESSIONAL_INVESTOR_APPLICATION_OPTION_VALUES',
  'LAST_FOCUSED_VIDEO_ID',
  'PORTFOLIO_SORT',
  'IS_AD_REMOVAL_REWARD_ON',
  'KB_ORDERABLE_CASH_AMOUNT',
  'PORTFOLIO_CURRENCY_MODE',
  'CHAT_SEARCH',
  'LAST_FOCUSED_CHAT_TAB',
  'CHAT_ASSET_VERIFY_MODAL_CHECK',
  'LAST_FOCUSED_COMMUNITY_TAB',
  'IS_PREMIUM_USER_FROM_WEBVIEW',
];

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.c2ln';

/** Stores `raw` directly and reads it back through the codec. */
function readRaw(key: StorageKey, raw: string) {
  window.localStorage.setItem(key, raw);
  return readStorage(key);
}

beforeEach(() => window.localStorage.clear());

describe('keys', () => {
  it('defines exactly the keys of spec §3 with the MOAT prefix', () => {
    expect(Object.values(STORAGE_KEYS).sort()).toEqual([...SPEC_KEYS].sort());
    for (const [name, key] of Object.entries(STORAGE_KEYS)) expect(key).toBe(name);
  });

  it('builds the per-chat notice key', () => {
    expect(chatNoticeKey(42)).toBe('MOAT_CHAT_NOTICE_42');
    expect(chatNoticeKey('room-a')).toBe('MOAT_CHAT_NOTICE_room-a');
  });

  it('resolves raw names to typed definitions', () => {
    expect(storageKeyByName('MOAT_LOCALE')?.key).toBe('MOAT_LOCALE');
    expect(storageKeyByName('MOAT_CHAT_NOTICE_7')?.key).toBe('MOAT_CHAT_NOTICE_7');
    expect(storageKeyByName('MOAT_CHAT_NOTICE_')).toBeUndefined();
    expect(storageKeyByName('UNKNOWN')).toBeUndefined();
    expect(storageKeyByName('toString')).toBeUndefined();
    expect(storageKeyByName('__proto__')).toBeUndefined();
  });
});

describe('codecs', () => {
  it('booleans are "true"/"false"', () => {
    writeStorage(STORAGE_KEYS.MOAT_META_PORTFOLIO_LOCK, true);
    expect(window.localStorage.getItem('MOAT_META_PORTFOLIO_LOCK')).toBe('true');
    expect(readStorage('MOAT_META_PORTFOLIO_LOCK')).toBe(true);
    writeStorage('IS_PREMIUM_USER_FROM_WEBVIEW', false);
    expect(window.localStorage.getItem('IS_PREMIUM_USER_FROM_WEBVIEW')).toBe('false');
    expect(readStorage('IS_PREMIUM_USER_FROM_WEBVIEW')).toBe(false);
    expect(readRaw('ON_BOARDING_INTRO', 'yes')).toBeUndefined();
    expect(readRaw('ON_BOARDING_INTRO', 'TRUE')).toBeUndefined();
    expect(readRaw('ON_BOARDING_INTRO', '1')).toBeUndefined();
  });

  it('auth token is the raw JWT', () => {
    writeStorage('AUTH_TOKEN', JWT);
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBe(JWT);
    expect(readStorage('AUTH_TOKEN')).toBe(JWT);
    expect(readRaw('AUTH_TOKEN', '"' + JWT + '"')).toBeUndefined();
    expect(readRaw('AUTH_TOKEN', 'not a token')).toBeUndefined();
  });

  it('locale, login platform, countries, currency mode and community tab are enums', () => {
    expect(readRaw('MOAT_LOCALE', 'en')).toBe('en');
    expect(readRaw('MOAT_LOCALE', 'fr')).toBeUndefined();
    expect(readRaw('MOAT_LOGIN_PLATFORM', 'kakao')).toBe('kakao');
    expect(readRaw('MOAT_LOGIN_PLATFORM', 'email')).toBe('email');
    // Any configured OpenID provider id.
    expect(readRaw('MOAT_LOGIN_PLATFORM', 'corp-sso.v2')).toBe('corp-sso.v2');
    expect(readRaw('MOAT_LOGIN_PLATFORM', '')).toBeUndefined();
    expect(readRaw('MOAT_LOGIN_PLATFORM', 'not an id')).toBeUndefined();
    expect(readRaw('MOAT_LOGIN_PLATFORM', '-x')).toBeUndefined();
    expect(readRaw('MOAT_NEWS_COUNTRY', 'ALL')).toBe('ALL');
    expect(readRaw('MOAT_DIVIDEND_COUNTRY', 'kr')).toBeUndefined();
    expect(readRaw('PORTFOLIO_CURRENCY_MODE', 'ORIGINAL')).toBe('ORIGINAL');
    expect(readRaw('PORTFOLIO_CURRENCY_MODE', 'EUR')).toBeUndefined();
    expect(readRaw('LAST_FOCUSED_COMMUNITY_TAB', 'influencers')).toBe('influencers');
    expect(readRaw('LAST_FOCUSED_COMMUNITY_TAB', 'hot')).toBeUndefined();
  });

  it('lists are JSON arrays of strings', () => {
    writeStorage('MOAT_RECENT_STOCKS_2', ['005930', 'AAPL']);
    expect(window.localStorage.getItem('MOAT_RECENT_STOCKS_2')).toBe('["005930","AAPL"]');
    expect(readStorage('MOAT_RECENT_STOCKS_2')).toEqual(['005930', 'AAPL']);
    expect(readRaw('MOAT_NEWS_RECENT_SEARCHES', '[1,2]')).toBeUndefined();
    expect(readRaw('MOAT_COMMUNITY_RECENT_SEARCHES', '{"a":1}')).toBeUndefined();
    expect(readRaw('MOAT_FAVORITE_ASSETS_REORDER', '[')).toBeUndefined();
  });

  it('portfolio sort is JSON {key, dir}', () => {
    writeStorage('PORTFOLIO_SORT', { key: 'dailyChange', dir: 'desc' });
    expect(JSON.parse(window.localStorage.getItem('PORTFOLIO_SORT')!)).toEqual({ key: 'dailyChange', dir: 'desc' });
    expect(readStorage('PORTFOLIO_SORT')).toEqual({ key: 'dailyChange', dir: 'desc' });
    expect(readRaw('PORTFOLIO_SORT', '{"key":"price","dir":"asc"}')).toBeUndefined();
    expect(readRaw('PORTFOLIO_SORT', '{"key":"name","dir":"up"}')).toBeUndefined();
    expect(readRaw('PORTFOLIO_SORT', 'null')).toBeUndefined();
  });

  it('orderable cash is a non-negative decimal string', () => {
    expect(readRaw('KB_ORDERABLE_CASH_AMOUNT', '1234.56')).toBe('1234.56');
    expect(readRaw('KB_ORDERABLE_CASH_AMOUNT', '1e3')).toBeUndefined();
    expect(readRaw('KB_ORDERABLE_CASH_AMOUNT', '-5')).toBeUndefined();
    expect(readRaw('KB_ORDERABLE_CASH_AMOUNT', '')).toBeUndefined();
  });

  it('loan calculator values and professional draft are validated JSON objects', () => {
    const loan = { principal: '100000000', annualRatePct: '4.5', termMonths: '360', graceMonths: '0', method: 'bullet' as const };
    writeStorage('LOAN_INTEREST_CALCULATOR_VALUES', loan);
    expect(readStorage('LOAN_INTEREST_CALCULATOR_VALUES')).toEqual(loan);
    expect(readRaw('LOAN_INTEREST_CALCULATOR_VALUES', JSON.stringify({ ...loan, method: 'other' }))).toBeUndefined();
    expect(readRaw('LOAN_INTEREST_CALCULATOR_VALUES', JSON.stringify({ ...loan, principal: 1 }))).toBeUndefined();

    const draft = { criteria: ['income'], figures: { income: '100000000' } };
    writeStorage('PROFESSIONAL_INVESTOR_APPLICATION_OPTION_VALUES', draft);
    expect(readStorage('PROFESSIONAL_INVESTOR_APPLICATION_OPTION_VALUES')).toEqual(draft);
    expect(readRaw('PROFESSIONAL_INVESTOR_APPLICATION_OPTION_VALUES', '{"criteria":["a"],"figures":{"a":1}}')).toBeUndefined();
  });

  it('ids are non-blank strings, chat search is any text', () => {
    expect(readRaw('LAST_FOCUSED_VIDEO_ID', 'v1')).toBe('v1');
    expect(readRaw('LAST_FOCUSED_VIDEO_ID', '  ')).toBeUndefined();
    expect(readRaw('LAST_FOCUSED_CHAT_TAB', 'direct')).toBe('direct');
    expect(readRaw('MOAT_COMMUNITY_TIMELINE_INFLUENCER', 'u9')).toBe('u9');
    expect(readRaw('CHAT_SEARCH', '')).toBe('');
    writeStorage(chatNoticeKey(3), 'notice-8');
    expect(readStorage(chatNoticeKey(3))).toBe('notice-8');
  });
});

describe('access', () => {
  it('absent keys read as undefined; remove deletes', () => {
    expect(readStorage('MOAT_LOCALE')).toBeUndefined();
    writeStorage('MOAT_LOCALE', 'ko');
    removeStorage('MOAT_LOCALE');
    expect(window.localStorage.getItem('MOAT_LOCALE')).toBeNull();
  });

  it('does not crash when localStorage throws on access', () => {
    const spy = vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    try {
      expect(readStorage('MOAT_LOCALE')).toBeUndefined();
      expect(writeStorage('MOAT_LOCALE', 'en')).toBe(false);
      expect(() => removeStorage('MOAT_LOCALE')).not.toThrow();
      expect(writeStorageRaw('MOAT_LOCALE', 'en')).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });

  it('does not crash when setItem throws (quota)', () => {
    const spy = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    try {
      expect(writeStorage('MOAT_LOCALE', 'en')).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('writeStorageRaw', () => {
  it('accepts known keys with valid values and removes on null', () => {
    expect(writeStorageRaw('IS_PREMIUM_USER_FROM_WEBVIEW', 'true')).toBe(true);
    expect(readStorage('IS_PREMIUM_USER_FROM_WEBVIEW')).toBe(true);
    expect(writeStorageRaw('IS_PREMIUM_USER_FROM_WEBVIEW', null)).toBe(true);
    expect(window.localStorage.getItem('IS_PREMIUM_USER_FROM_WEBVIEW')).toBeNull();
  });

  it('stores JSON values in canonical form', () => {
    expect(writeStorageRaw('PORTFOLIO_SORT', '{ "dir": "asc", "key": "name" }')).toBe(true);
    expect(window.localStorage.getItem('PORTFOLIO_SORT')).toBe('{"dir":"asc","key":"name"}');
  });

  it('refuses unknown keys and bad values', () => {
    expect(writeStorageRaw('SOMETHING_ELSE', 'true')).toBe(false);
    expect(window.localStorage.getItem('SOMETHING_ELSE')).toBeNull();
    expect(writeStorageRaw('IS_AD_REMOVAL_REWARD_ON', 'maybe')).toBe(false);
    expect(window.localStorage.getItem('IS_AD_REMOVAL_REWARD_ON')).toBeNull();
  });
});

describe('subscribeStorage', () => {
  it('fires on local writes and removes, and on the window storage event for our keys', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeStorage(listener);
    writeStorage('MOAT_LOCALE', 'en');
    removeStorage('MOAT_LOCALE');
    window.dispatchEvent(new StorageEvent('storage', { key: 'MOAT_NEWS_COUNTRY' }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'someone_else' }));
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    expect(listener.mock.calls).toEqual([['MOAT_LOCALE'], ['MOAT_LOCALE'], ['MOAT_NEWS_COUNTRY'], [null]]);

    unsubscribe();
    writeStorage('MOAT_LOCALE', 'ko');
    window.dispatchEvent(new StorageEvent('storage', { key: 'MOAT_LOCALE' }));
    expect(listener).toHaveBeenCalledTimes(4);
  });

  it('does not fire when a write is refused', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeStorage(listener);
    writeStorageRaw('MOAT_LOCALE', 'xx');
    expect(listener).not.toHaveBeenCalled();
    unsubscribe();
  });
});
