import Big from 'big.js';
import { safeDiv, toBig } from './money';

describe('toBig', () => {
  it('parses strings, numbers and Bigs exactly', () => {
    expect(toBig('0.1').plus('0.2').toString()).toBe('0.3');
    expect(toBig(12.5).toString()).toBe('12.5');
    expect(toBig(new Big('7')).toString()).toBe('7');
  });

  it('treats missing and unparsable input as zero', () => {
    for (const x of [null, undefined, '', 'abc', Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(toBig(x).toString()).toBe('0');
    }
  });
});

describe('safeDiv', () => {
  it('divides exactly to 20 decimal places', () => {
    expect(safeDiv('10', '4').toString()).toBe('2.5');
    expect(safeDiv(1, 3).toFixed(20)).toBe('0.33333333333333333333');
  });

  it('returns zero when the divisor is zero', () => {
    expect(safeDiv(5, 0).toString()).toBe('0');
    expect(safeDiv('5', '0.000').toString()).toBe('0');
    expect(safeDiv('5', '-0').toString()).toBe('0');
  });

  it('returns zero when an error occurs', () => {
    expect(safeDiv('abc', 2).toString()).toBe('0');
    expect(safeDiv(2, 'abc').toString()).toBe('0');
    expect(safeDiv(2, undefined).toString()).toBe('0');
    const failing = vi.spyOn(Big.prototype, 'div').mockImplementation(() => {
      throw new Error('boom');
    });
    try {
      expect(safeDiv(4, 2).toString()).toBe('0');
    } finally {
      failing.mockRestore();
    }
  });
});

describe('rounding', () => {
  it('rounds half up, not half even', () => {
    expect(toBig('2.5').round(0).toString()).toBe('3');
    expect(toBig('0.125').toFixed(2)).toBe('0.13');
    expect(toBig('-2.5').round(0).toString()).toBe('-3');
  });
});
