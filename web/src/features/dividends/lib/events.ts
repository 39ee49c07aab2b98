/** The calendar's entries: each dividend is an ex-date event and, once known, a pay-date event. */
import { monthOf, type IsoDate, type IsoMonth } from './dates';
import type { CalendarDividend } from '../api/calendar';

export type EventType = 'ex' | 'pay';

export interface DividendEvent {
  /** Unique on the page. */
  key: string;
  date: IsoDate;
  type: EventType;
  dividend: CalendarDividend;
}

/** The events of `month` by date, dates ascending; ex-dates before pay dates on a day. */
export function eventsByDate(dividends: readonly CalendarDividend[], month: IsoMonth): Map<IsoDate, DividendEvent[]> {
  const events: DividendEvent[] = [];
  for (const d of dividends) {
    const id = `${d.instrument_id}|${d.ex_date}`;
    if (monthOf(d.ex_date) === month) events.push({ key: `${id}|ex`, date: d.ex_date, type: 'ex', dividend: d });
    if (d.pay_date && monthOf(d.pay_date) === month) events.push({ key: `${id}|pay`, date: d.pay_date, type: 'pay', dividend: d });
  }
  events.sort(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      (a.type === b.type ? 0 : a.type === 'ex' ? -1 : 1) ||
      a.dividend.ticker.localeCompare(b.dividend.ticker),
  );
  const byDate = new Map<IsoDate, DividendEvent[]>();
  for (const e of events) {
    const list = byDate.get(e.date);
    if (list) list.push(e);
    else byDate.set(e.date, [e]);
  }
  return byDate;
}
