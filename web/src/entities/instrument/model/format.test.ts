import { describe, expect, it } from 'vitest';
import { direction, formatChange, formatCompactMoney, formatPrice, priceDecimals } from './format';
import { instrumentNames, isInstrumentId, stockPath } from './ids';

const stock = { kind: 'stock', currency: 'KRW' } as const;
const us = { kind: 'stock', currency: 'USD' } as const;
const index = { kind: 'index', currency: 'KRW' } as const;
const fx = { kind: 'currency', currency: 'KRW' } as const;

describe('market formatting', () => {
  it('reads the direction from the decimal text', () => {
    expect(direction('1200')).toBe('up');
    expect(direction('+0.01')).toBe('up');
    expect(direction('-5.57')).toBe('down');
    expect(direction('0')).toBe('flat');
    expect(direction('-0.00')).toBe('flat');
  });

  it('writes prices per currency: whole won, cents, two decimals for indices and FX', () => {
    expect(formatPrice('71200', stock, 'ko')).toBe('₩71,200');
    expect(formatPrice('71200.5', stock, 'ko')).toBe('₩71,201');
    expect(formatPrice('189.425', us, 'en')).toBe('$189.43');
    expect(formatPrice('2650.1', index, 'ko')).toBe('2,650.10');
    expect(formatPrice('1380.5', fx, 'en')).toBe('1,380.50');
    expect(priceDecimals(us)).toBe(2);
    expect(priceDecimals(stock)).toBe(0);
  });

  it('signs changes without a currency sign', () => {
    expect(formatChange('1200', stock, 'ko')).toBe('+1,200');
    expect(formatChange('-5.57', us, 'en')).toBe('-5.57');
    expect(formatChange('0', us, 'en')).toBe('0.00');
  });

  it('shortens large amounts', () => {
    expect(formatCompactMoney('421477400000000', 'KRW', 'ko')).toBe('₩421.5조');
    expect(formatCompactMoney('2900000000000', 'USD', 'en')).toBe('$2.9T');
  });

  it('checks ids, builds paths and picks names by language', () => {
    expect(isInstrumentId('KRX:005930')).toBe(true);
    expect(isInstrumentId('NYSE:BRK.B')).toBe(true);
    expect(isInstrumentId('INDEX:KOSPI')).toBe(true);
    expect(isInstrumentId('005930')).toBe(false);
    expect(isInstrumentId('MARS:ABC')).toBe(false);
    expect(isInstrumentId('KRX:')).toBe(false);
    expect(stockPath('KRX:005930')).toBe('/stocks/KRX%3A005930');
    const names = { name_ko: '삼성전자', name_en: 'Samsung Electronics' };
    expect(instrumentNames(names, 'ko')).toEqual({ primary: '삼성전자', secondary: 'Samsung Electronics' });
    expect(instrumentNames(names, 'en')).toEqual({ primary: 'Samsung Electronics', secondary: '삼성전자' });
    expect(instrumentNames({ name_ko: '', name_en: 'Apple' }, 'ko')).toEqual({ primary: 'Apple', secondary: '' });
  });
});
