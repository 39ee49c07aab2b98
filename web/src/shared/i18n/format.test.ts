import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { currencyDecimals, formatAmount, formatDate, formatMoney, formatNumber, formatPercent, formatUnitAmount } from './format';

describe('formatMoney', () => {
  it('shows KRW as whole won in both locales', () => {
    expect(formatMoney('1234567', 'KRW', 'ko')).toBe('₩1,234,567');
    expect(formatMoney('1234567', 'KRW', 'en')).toBe('₩1,234,567');
  });

  it('rounds KRW half up to the won, through big.js', () => {
    expect(formatMoney('1234567.5', 'KRW', 'ko')).toBe('₩1,234,568');
    expect(formatMoney('1234567.49', 'KRW', 'ko')).toBe('₩1,234,567');
    expect(formatMoney(new Big('-2.5'), 'KRW', 'ko')).toBe('-₩3');
  });

  it('shows USD with two decimals, in each locale’s style', () => {
    expect(formatMoney('1234.5', 'USD', 'en')).toBe('$1,234.50');
    expect(formatMoney('1234.5', 'USD', 'ko')).toBe('$1,234.50');
    expect(formatMoney(new Big('0.005'), 'USD', 'en')).toBe('$0.01');
    expect(formatMoney('-19.999', 'USD', 'en')).toBe('-$20.00');
  });

  it('keeps every digit of amounts beyond float precision', () => {
    expect(formatMoney('9007199254740993', 'KRW', 'ko')).toBe('₩9,007,199,254,740,993');
    expect(formatMoney('12345678901234.56', 'USD', 'en')).toBe('$12,345,678,901,234.56');
  });
});

describe('formatNumber and formatPercent', () => {
  it('groups digits per locale', () => {
    expect(formatNumber('1234567.891', 'ko')).toBe('1,234,567.891');
    expect(formatNumber(1234.5, 'en', { maximumFractionDigits: 0 })).toBe('1,235');
    expect(formatNumber(new Big('0.125'), 'en', { maximumFractionDigits: 2 })).toBe('0.13');
  });

  it('signs percentages', () => {
    expect(formatPercent('1.844', 'ko')).toBe('+1.84%');
    expect(formatPercent('-0.5', 'en')).toBe('-0.50%');
    expect(formatPercent('0', 'en')).toBe('0.00%');
  });
});

describe('formatDate', () => {
  const date = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));

  it('formats in the locale’s style', () => {
    expect(formatDate(date, 'ko', { dateStyle: 'long', timeZone: 'UTC' })).toBe('2025년 1월 2일');
    expect(formatDate(date, 'en', { dateStyle: 'long', timeZone: 'UTC' })).toBe('January 2, 2025');
  });

  it('accepts ISO strings and gives an empty string for invalid dates', () => {
    expect(formatDate('2025-01-02T03:04:05Z', 'en', { dateStyle: 'medium', timeZone: 'UTC' })).toBe('Jan 2, 2025');
    expect(formatDate('not a date', 'en')).toBe('');
  });
});

describe('formatUnitAmount and formatAmount: each currency to its minor unit', () => {
  it('never shows decimals of won: an average cost or a converted price is rounded', () => {
    expect(formatUnitAmount('320034.72', 'KRW', 'ko')).toBe('₩320,035');
    expect(formatUnitAmount('320034.4999', 'KRW', 'en')).toBe('₩320,034');
    expect(formatUnitAmount('71200', 'KRW', 'ko')).toBe('₩71,200');
    expect(formatAmount('-1200.5', 'KRW', 'ko', true)).toBe('-₩1,201');
  });

  it('keeps cents of dollars, and more places for a price below a cent’s precision', () => {
    expect(formatUnitAmount('189.4', 'USD', 'en')).toBe('$189.40');
    expect(formatUnitAmount('0.2375', 'USD', 'en')).toBe('$0.2375');
    expect(formatUnitAmount('0.23751', 'USD', 'ko')).toBe('$0.2375');
  });

  it('follows ISO 4217 for other currencies: yen whole, euro cents, dinar three places', () => {
    expect(currencyDecimals('JPY')).toBe(0);
    expect(currencyDecimals('EUR')).toBe(2);
    expect(currencyDecimals('BHD')).toBe(3);
    expect(formatUnitAmount('1503.6', 'JPY', 'en')).toBe('¥1,504');
    expect(formatAmount('1503.6', 'JPY', 'en')).toBe('¥1,504');
    expect(formatAmount('12.4', 'EUR', 'en')).toBe('€12.40');
  });
});
