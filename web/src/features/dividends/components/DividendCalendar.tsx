import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useSearchParams } from 'react-router';
import { formatUnitAmount } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { COUNTRY_FILTERS, type CountryFilter } from '@/shared/lib/storage';
import { instrumentNames, stockPath } from '@/entities/instrument/model/ids';
import { AppLink } from '@/shared/ui/AppLink';
import { addDays, addMonths, daysInMonth, isIsoMonth, monthOf, monthRange, monthWeeks, today, weekday, type IsoDate, type IsoMonth } from '../lib/dates';
import { eventsByDate, type DividendEvent, type EventType } from '../lib/events';
import { formatDay, formatFullDay, formatMonth, weekdayNames } from '../lib/format';
import { useDividendCountry } from '../lib/prefs';
import { SegmentedControl } from '@/shared/ui/segmented/SegmentedControl';
import { useDividendCalendar } from '../api/calendar';

type View = 'month' | 'list';

/** Chips shown in a day of the month grid before "+N". */
const CHIPS_PER_DAY = 3;

/**
 * The dividend calendar: a month grid (chips on wide screens, dots on a phone, the chosen
 * day's entries below) or a list by date. The month and the view live in the address
 * (`?month=2026-12&view=list`), the country in `MOAT_DIVIDEND_COUNTRY`.
 */
export function DividendCalendar() {
  const { t } = useTranslation('dividends');
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  const [country, setCountry] = useDividendCountry();
  const todayDate = today();
  const currentMonth = monthOf(todayDate);
  const rawMonth = params.get('month');
  const month: IsoMonth = isIsoMonth(rawMonth) ? rawMonth : currentMonth;
  const view: View = params.get('view') === 'list' ? 'list' : 'month';
  const { from, to } = monthRange(month);
  const calendar = useDividendCalendar(from, to, country);
  const titleId = useId();
  const monthTitleId = useId();

  const byDate = useMemo(
    () => eventsByDate(calendar.isPlaceholderData ? [] : (calendar.data ?? []), month),
    [calendar.data, calendar.isPlaceholderData, month],
  );

  // The chosen day: what was picked in this month, else today, else the first day with an entry.
  const [picked, setPicked] = useState<IsoDate>();
  const selected: IsoDate =
    picked && monthOf(picked) === month
      ? picked
      : monthOf(todayDate) === month
        ? todayDate
        : ([...byDate.keys()][0] ?? from);

  const update = (changes: Record<string, string | null>, replace = false) => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null) next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace, preventScrollReset: true },
    );
  };
  const goToMonth = (m: IsoMonth) => update({ month: m === currentMonth ? null : m });
  const selectDay = (date: IsoDate) => {
    setPicked(date);
    if (monthOf(date) !== month) goToMonth(monthOf(date));
  };

  const loading = calendar.isPending || calendar.isPlaceholderData;
  const empty = !loading && !calendar.isError && byDate.size === 0;

  return (
    <section className="card dividends-calendar" aria-labelledby={titleId} data-testid="dividend-calendar">
      <div className="dividends-calendar__head">
        <h2 id={titleId} className="dividends-section-title">
          {t('calendar.title')}
        </h2>
        <SegmentedControl
          label={t('calendar.country.label')}
          segments={COUNTRY_FILTERS.map((c: CountryFilter) => ({ value: c, label: t(`calendar.country.${c}`), testId: `country-${c}` }))}
          value={country}
          onChange={setCountry}
        />
      </div>

      <div className="dividends-calendar__bar">
        <div className="dividends-calendar__nav">
          <button
            type="button"
            className="dividends-icon-button"
            aria-label={t('calendar.previousMonth')}
            onClick={() => goToMonth(addMonths(month, -1))}
            data-testid="previous-month"
          >
            <Chevron direction="left" />
          </button>
          <h3 id={monthTitleId} className="dividends-calendar__month" aria-live="polite">
            {formatMonth(month, locale)}
          </h3>
          <button
            type="button"
            className="dividends-icon-button"
            aria-label={t('calendar.nextMonth')}
            onClick={() => goToMonth(addMonths(month, 1))}
            data-testid="next-month"
          >
            <Chevron direction="right" />
          </button>
        </div>
        <div className="dividends-calendar__tools">
          <button
            type="button"
            className="dividends-text-button"
            onClick={() => {
              setPicked(undefined);
              goToMonth(currentMonth);
            }}
            disabled={month === currentMonth}
          >
            {t('calendar.thisMonth')}
          </button>
          <SegmentedControl
            label={t('calendar.view.label')}
            segments={(['month', 'list'] as const).map((v) => ({ value: v, label: t(`calendar.view.${v}`), testId: `view-${v}` }))}
            value={view}
            onChange={(v) => update({ view: v === 'month' ? null : v }, true)}
          />
        </div>
      </div>

      <Legend />

      {calendar.isError && !calendar.data ? (
        <div className="dividends-message" role="alert">
          <p>{t('calendar.loadFailed')}</p>
          <button type="button" className="button button--secondary" onClick={() => void calendar.refetch()}>
            {t('calendar.retry')}
          </button>
        </div>
      ) : (
        <div className="dividends-calendar__body" aria-busy={loading}>
          {loading && <p className="visually-hidden">{t('calendar.loading')}</p>}
          {view === 'month' ? (
            <>
              <MonthGrid
                month={month}
                byDate={byDate}
                selected={selected}
                todayDate={todayDate}
                labelledBy={monthTitleId}
                onSelect={selectDay}
              />
              <DayPanel date={selected} events={byDate.get(selected) ?? []} loading={loading} />
            </>
          ) : empty ? (
            <p className="dividends-empty">{t('calendar.empty')}</p>
          ) : (
            <ListView byDate={byDate} />
          )}
        </div>
      )}
      <p className="dividends-note">{t('calendar.note')}</p>
    </section>
  );
}

function Chevron({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d={direction === 'left' ? 'm14.5 6-6 6 6 6' : 'm9.5 6 6 6-6 6'} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The mark of an ex-date (a filled dot) or a pay date (a ring): shape and colour both differ. */
function Marker({ type }: { type: EventType }) {
  return <span className={`dividends-marker dividends-marker--${type}`} aria-hidden="true" />;
}

function Legend() {
  const { t } = useTranslation('dividends');
  return (
    <ul className="dividends-legend" aria-label={t('calendar.legend.label')}>
      {(['ex', 'pay'] as const).map((type) => (
        <li key={type} className="dividends-legend__item">
          <Marker type={type} />
          {t(`calendar.legend.${type}`)}
        </li>
      ))}
    </ul>
  );
}

interface MonthGridProps {
  month: IsoMonth;
  byDate: Map<IsoDate, DividendEvent[]>;
  selected: IsoDate;
  todayDate: IsoDate;
  labelledBy: string;
  onSelect: (date: IsoDate) => void;
}

/**
 * The month as a grid (WAI-ARIA grid pattern): one day button in the tab order, arrows
 * move by day and week, Home/End to the week's ends, Page Up/Down by month.
 */
function MonthGrid({ month, byDate, selected, todayDate, labelledBy, onSelect }: MonthGridProps) {
  const { t } = useTranslation('dividends');
  const locale = useLocale();
  const gridRef = useRef<HTMLTableElement>(null);
  /** A day to move the focus to once it is on screen (a new month renders a moment later). */
  const focusDate = useRef<IsoDate>(undefined);
  const weekdays = useMemo(() => weekdayNames(locale), [locale]);
  const hintId = useId();

  useEffect(() => {
    const date = focusDate.current;
    if (!date || date !== selected) return;
    const button = gridRef.current?.querySelector<HTMLButtonElement>(`[data-date="${date}"] .dividends-day__button`);
    if (!button) return;
    focusDate.current = undefined;
    button.focus();
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const step: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
    let next: IsoDate | undefined;
    if (event.key in step) next = addDays(selected, step[event.key]!);
    else if (event.key === 'Home') next = addDays(selected, -weekday(selected));
    else if (event.key === 'End') next = addDays(selected, 6 - weekday(selected));
    else if (event.key === 'PageUp' || event.key === 'PageDown') {
      const target = addMonths(month, event.key === 'PageUp' ? -1 : 1);
      const day = Math.min(Number(selected.slice(8)), daysInMonth(target));
      next = `${target}-${String(day).padStart(2, '0')}`;
    }
    if (!next || !(event.target instanceof HTMLButtonElement)) return;
    event.preventDefault();
    focusDate.current = next;
    onSelect(next);
  };

  return (
    <>
      <p id={hintId} className="visually-hidden">
        {t('calendar.gridHint')}
      </p>
      <table
        ref={gridRef}
        role="grid"
        className="dividends-grid"
        aria-labelledby={labelledBy}
        aria-describedby={hintId}
        onKeyDown={onKeyDown}
        data-testid="month-grid"
      >
        <thead>
          <tr>
            {weekdays.map((w) => (
              <th key={w.long} scope="col" abbr={w.long} className="dividends-grid__weekday">
                {w.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(month).map((week, i) => (
            <tr key={i}>
              {week.map((date, j) =>
                date ? (
                  <DayCell
                    key={date}
                    date={date}
                    events={byDate.get(date) ?? []}
                    selected={date === selected}
                    isToday={date === todayDate}
                    onSelect={onSelect}
                  />
                ) : (
                  <td key={`blank-${j}`} className="dividends-day dividends-day--blank" aria-hidden="true" />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

interface DayCellProps {
  date: IsoDate;
  events: DividendEvent[];
  selected: boolean;
  isToday: boolean;
  onSelect: (date: IsoDate) => void;
}

function DayCell({ date, events, selected, isToday, onSelect }: DayCellProps) {
  const { t } = useTranslation('dividends');
  const locale = useLocale();
  const ex = events.filter((e) => e.type === 'ex').length;
  const pay = events.length - ex;
  const dateText = formatFullDay(date, locale);
  const label = events.length ? t('calendar.dayEvents', { date: dateText, ex, pay }) : dateText;
  const shown = events.slice(0, CHIPS_PER_DAY);
  const types = new Set(events.map((e) => e.type));
  return (
    <td
      role="gridcell"
      className={`dividends-day${selected ? ' dividends-day--selected' : ''}${isToday ? ' dividends-day--today' : ''}`}
      aria-selected={selected}
      data-date={date}
      data-testid="calendar-day"
    >
      <button
        type="button"
        className="dividends-day__button"
        tabIndex={selected ? 0 : -1}
        aria-label={label}
        aria-current={isToday ? 'date' : undefined}
        onClick={() => onSelect(date)}
      >
        <span className="dividends-day__number" aria-hidden="true">
          {Number(date.slice(8))}
        </span>
        {/* A phone shows only which kinds of dates fall on the day. */}
        <span className="dividends-day__dots" aria-hidden="true">
          {(['ex', 'pay'] as const).map((type) => types.has(type) && <Marker key={type} type={type} />)}
        </span>
      </button>
      {/* A wide screen shows the entries themselves; keyboard users reach them in the day's list. */}
      {shown.length > 0 && (
        <ul className="dividends-day__chips">
          {shown.map((e) => (
            <li key={e.key}>
              <AppLink
                to={stockPath(e.dividend.instrument_id)}
                className={`dividends-chip dividends-chip--${e.type}`}
                tabIndex={-1}
                title={`${instrumentNames(e.dividend, locale).primary} · ${t(`calendar.legend.${e.type}`)}`}
                data-testid="calendar-chip"
              >
                <Marker type={e.type} />
                <span className="dividends-chip__name">{instrumentNames(e.dividend, locale).primary}</span>
              </AppLink>
            </li>
          ))}
          {events.length > shown.length && (
            <li className="dividends-chip__more" aria-label={t('calendar.moreLabel', { count: events.length - shown.length })}>
              {t('calendar.more', { count: events.length - shown.length })}
            </li>
          )}
        </ul>
      )}
    </td>
  );
}

/** The chosen day's entries, under the grid. */
function DayPanel({ date, events, loading }: { date: IsoDate; events: DividendEvent[]; loading: boolean }) {
  const { t } = useTranslation('dividends');
  const locale = useLocale();
  return (
    <div className="dividends-day-panel" data-testid="day-panel" data-date={date}>
      <h4 className="dividends-day-panel__title">{formatDay(date, locale)}</h4>
      {events.length > 0 ? (
        <EntryList events={events} />
      ) : (
        <p className="dividends-empty">{loading ? t('calendar.loading') : t('calendar.emptyDay')}</p>
      )}
    </div>
  );
}

/** Every day of the month with an entry, in order. */
function ListView({ byDate }: { byDate: Map<IsoDate, DividendEvent[]> }) {
  const locale = useLocale();
  return (
    <div className="dividends-list" data-testid="dividend-list">
      {[...byDate].map(([date, events]) => (
        <section key={date} className="dividends-list__group" data-testid="dividend-day-group" data-date={date}>
          <h4 className="dividends-list__date">{formatDay(date, locale)}</h4>
          <EntryList events={events} />
        </section>
      ))}
    </div>
  );
}

function EntryList({ events }: { events: DividendEvent[] }) {
  return (
    <ul className="dividends-entries">
      {events.map((e) => (
        <Entry key={e.key} event={e} />
      ))}
    </ul>
  );
}

/** One ex-date or pay date: name, ticker, which date it is, the amount a share; opens the stock. */
function Entry({ event }: { event: DividendEvent }) {
  const { t } = useTranslation('dividends');
  const locale = useLocale();
  const { dividend, type } = event;
  const name = instrumentNames(dividend, locale).primary;
  return (
    <li>
      <AppLink
        to={stockPath(dividend.instrument_id)}
        className={`dividends-entry dividends-entry--${type}`}
        data-testid="dividend-entry"
        data-type={type}
      >
        <span className={`dividends-badge dividends-badge--${type}`}>
          <Marker type={type} />
          {t(`calendar.event.${type}`)}
        </span>
        <span className="dividends-entry__names">
          <span className="dividends-entry__name">{name}</span>
          <span className="dividends-entry__ticker">{dividend.ticker}</span>
        </span>
        <span className="dividends-entry__amount">
          {t('calendar.perShare', { amount: formatUnitAmount(dividend.amount, dividend.currency, locale) })}
        </span>
      </AppLink>
    </li>
  );
}
