import { describe, expect, it } from 'vitest';
import { AAPL, HYNIX, instrument } from '@/test/market';
import { applyPendingOrder, moveItem } from './pending';

const SAMSUNG = instrument();

describe('pending favourites order', () => {
  it('moves an item', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 1, 9)).toEqual(['a', 'c', 'b']);
  });

  it('applies the edited order; favourites left out were removed in the edit', () => {
    const saved = [SAMSUNG, AAPL, HYNIX];
    expect(applyPendingOrder(saved, [HYNIX.id, SAMSUNG.id])).toEqual([HYNIX, SAMSUNG]);
    expect(applyPendingOrder(saved, [])).toEqual([]);
  });

  it('drops an edit that names something no longer saved (changed elsewhere, or another member)', () => {
    expect(applyPendingOrder([SAMSUNG, AAPL], [AAPL.id, 'KRX:000660'])).toBeUndefined();
  });
});
