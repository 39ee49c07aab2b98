import { describe, expect, it } from 'vitest';
import { addDays, addMonths, isIsoMonth, monthRange, monthWeeks, today, weekday } from './dates';
import { eventsByDate } from './events';
import { countryParam } from '../api/calendar';
import { entitlementTransaction } from '../api/record-entitlement';

describe('calendar dates', () => {
  it('gives a month’s first and last day, leap years included', () => {
    expect(monthRange('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(monthRange('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthRange('2027-02')).toEqual({ from: '2027-02-01', to: '2027-02-28' });
  });

  it('moves by days and months across year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-11', 14)).toBe('2028-01');
  });

  it('lays a month out in weeks from Sunday', () => {
    // 1 December 2026 is a Tuesday.
    expect(weekday('2026-12-01')).toBe(2);
    const weeks = monthWeeks('2026-12');
    expect(weeks).toHaveLength(5);
    expect(weeks[0]).toEqual([null, null, '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05']);
    expect(weeks[4]).toEqual(['2026-12-27', '2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', null, null]);
    expect(weeks.flat().filter(Boolean)).toHaveLength(31);
  });

  it('accepts only real months from the address', () => {
    expect(isIsoMonth('2026-12')).toBe(true);
    expect(isIsoMonth('2026-13')).toBe(false);
    expect(isIsoMonth('2026-1')).toBe(false);
    expect(isIsoMonth(null)).toBe(false);
    expect(today(new Date(2026, 10, 22, 23, 59))).toBe('2026-11-22');
  });
});

describe('dividend data', () => {
  it('sends ALL as all', () => {
    expect(countryParam('ALL')).toBe('all');
    expect(countryParam('KR')).toBe('KR');
  });

  it('puts each dividend on its ex-date and its pay date within the month', () => {
    const d = { instrument_id: 'NYSE:KO', ex_date: '2026-11-28', record_date: null, pay_date: '2026-12-15', amount: '0.51', currency: 'USD', name_ko: '코카콜라', name_en: 'Coca-Cola', ticker: 'KO' };
    expect([...eventsByDate([d], '2026-11')].map(([date, e]) => [date, e.map((x) => x.type)])).toEqual([['2026-11-28', ['ex']]]);
    expect([...eventsByDate([d], '2026-12')].map(([date, e]) => [date, e.map((x) => x.type)])).toEqual([['2026-12-15', ['pay']]]);
    expect(eventsByDate([{ ...d, pay_date: null }], '2026-12').size).toBe(0);
  });

  it('records an entitlement without a pay date on its ex-date, with no FX rate in its own currency', () => {
    const tx = entitlementTransaction({
      portfolio_id: 3, portfolio_name: 'ISA', instrument_id: 'KRX:005930', name_ko: '삼성전자', name_en: 'Samsung Electronics', ticker: '005930',
      ex_date: '2026-12-29', pay_date: null, quantity: '10', per_share: '361', currency: 'KRW', gross: '3610', tax: '556', net: '3054', fx_rate: null,
    });
    expect(tx).toEqual({ kind: 'dividend', trade_date: '2026-12-29', instrument_id: 'KRX:005930', quantity: '10', price: '361', fee: '0', tax: '556', currency: 'KRW', fx_rate: null, split: null, note: '' });
  });
});
