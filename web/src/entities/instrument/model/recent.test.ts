import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { addRecentStock, clearRecentStocks, MAX_RECENT_STOCKS, readRecentStocks, removeRecentStock, useRecentStocks, withRecent } from './recent';

const KEY = 'MOAT_RECENT_STOCKS_2';
const stored = () => JSON.parse(window.localStorage.getItem(KEY) ?? 'null') as unknown;
const ids = (n: number) => Array.from({ length: n }, (_, i) => `KRX:${String(i).padStart(6, '0')}`);

describe('recent stocks', () => {
  it('puts the newest first and never twice', () => {
    addRecentStock('KRX:005930');
    addRecentStock('NASDAQ:AAPL');
    addRecentStock('KRX:000660');
    expect(stored()).toEqual(['KRX:000660', 'NASDAQ:AAPL', 'KRX:005930']);
    addRecentStock('KRX:005930');
    expect(stored()).toEqual(['KRX:005930', 'KRX:000660', 'NASDAQ:AAPL']);
    expect(withRecent(['A:1', 'B:2'], 'B:2')).toEqual(['B:2', 'A:1']);
  });

  it(`keeps at most ${MAX_RECENT_STOCKS}, dropping the oldest`, () => {
    for (const id of ids(MAX_RECENT_STOCKS + 5)) addRecentStock(id);
    const list = readRecentStocks();
    expect(list).toHaveLength(MAX_RECENT_STOCKS);
    expect(list[0]).toBe(`KRX:${String(MAX_RECENT_STOCKS + 4).padStart(6, '0')}`);
    expect(list).not.toContain('KRX:000000');
    expect(withRecent(ids(MAX_RECENT_STOCKS), 'NYSE:BRK.B')).toHaveLength(MAX_RECENT_STOCKS);
  });

  it.each([
    ['not JSON', '[KRX:005930'],
    ['an object', '{"a":1}'],
    ['a string', '"KRX:005930"'],
    ['numbers', '[1,2,3]'],
    ['null', 'null'],
  ])('reads %s in storage as an empty list, and recovers on the next visit', (_what, raw) => {
    window.localStorage.setItem(KEY, raw);
    expect(readRecentStocks()).toEqual([]);
    addRecentStock('KRX:005930');
    expect(stored()).toEqual(['KRX:005930']);
  });

  it('drops stray entries of a readable list: non-ids, repeats, anything past the cap', () => {
    window.localStorage.setItem(KEY, JSON.stringify(['KRX:005930', '', 'nonsense', 'KRX:005930', 'NASDAQ:AAPL', '<script>', ...ids(30)]));
    const list = readRecentStocks();
    expect(list.slice(0, 3)).toEqual(['KRX:005930', 'NASDAQ:AAPL', 'KRX:000000']);
    expect(list).toHaveLength(MAX_RECENT_STOCKS);
    expect(new Set(list).size).toBe(list.length);
  });

  it('ignores a malformed id and removes or clears on request', () => {
    addRecentStock('not an id');
    expect(window.localStorage.getItem(KEY)).toBeNull();
    addRecentStock('KRX:005930');
    addRecentStock('NASDAQ:AAPL');
    removeRecentStock('KRX:005930');
    expect(stored()).toEqual(['NASDAQ:AAPL']);
    clearRecentStocks();
    expect(window.localStorage.getItem(KEY)).toBeNull();
  });

  it('useRecentStocks follows changes, here and from other tabs, with a stable array in between', () => {
    const { result, rerender } = renderHook(() => useRecentStocks());
    expect(result.current).toEqual([]);
    act(() => addRecentStock('KRX:005930'));
    expect(result.current).toEqual(['KRX:005930']);
    const first = result.current;
    rerender();
    expect(result.current).toBe(first);

    act(() => {
      window.localStorage.setItem(KEY, JSON.stringify(['NASDAQ:AAPL', 'KRX:005930']));
      window.dispatchEvent(new StorageEvent('storage', { key: KEY }));
    });
    expect(result.current).toEqual(['NASDAQ:AAPL', 'KRX:005930']);
  });
});
