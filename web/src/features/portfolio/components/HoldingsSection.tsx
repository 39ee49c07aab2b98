import { memo, useDeferredValue, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type Ref } from 'react';
import { useWindowVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { formatQuantity } from '@/shared/i18n/format';
import { PORTFOLIO_SORT_KEYS, type PortfolioSort } from '@/shared/lib/storage';
import { useLocale } from '@/shared/i18n/useLocale';
import { instrumentLabel, stockPath } from '@/entities/instrument/model/ids';
import { AppLink } from '@/shared/ui/AppLink';
import { usePortfolioT } from '../locales/messages';
import { useHoldingsSort } from '../lib/prefs';
import { sortHoldings } from '../lib/sort';
import { Amount, Change, Percent } from './ui';
import type { Holding } from '../api/valuation';

type SortKey = PortfolioSort['key'];

/** Wide enough for the holdings table; narrower screens get a list of rows. */
const WIDE_QUERY = '(min-width: 720px)';

function subscribeWide(onChange: () => void): () => void {
  const query = window.matchMedia?.(WIDE_QUERY);
  query?.addEventListener?.('change', onChange);
  return () => query?.removeEventListener?.('change', onChange);
}

/** Whether the screen is wide; `true` where media queries cannot be asked. */
export function useWideScreen(): boolean {
  return useSyncExternalStore(subscribeWide, () => window.matchMedia?.(WIDE_QUERY).matches ?? true, () => true);
}

/**
 * From this many holdings on, only the rows near the screen are in the page. Re-sorting or
 * re-rendering 200 rows otherwise re-lays out thousands of cells on every click (INP).
 */
export const VIRTUAL_ROWS_FROM = 60;
/** Rows kept in the page above and below the screen, so fast scrolling shows no gap. */
const ROW_OVERSCAN = 8;
/** First guesses of a row's height (each row is measured once shown). */
const TABLE_ROW_PX = 58;
const LIST_ROW_PX = 150;

interface VisibleRows {
  /** The element the rows are in (its position on the page places them). */
  ref: Ref<HTMLTableSectionElement & HTMLUListElement>;
  /** The rows to render; `null`: every row (a short list). */
  items: VirtualItem[] | null;
  /** Space standing in for the rows before and after the rendered ones, in px. */
  before: number;
  after: number;
  /** Measures a rendered row (its `data-index` says which). */
  measure: (element: Element | null) => void;
}

/** The holdings to render with their places: the visible ones, or all. */
function shownRows(rows: VisibleRows, holdings: readonly Holding[]): Array<readonly [number, Holding]> {
  if (!rows.items) return holdings.map((h, i) => [i, h] as const);
  return rows.items.flatMap((item) => {
    const h = holdings[item.index];
    return h ? [[item.index, h] as const] : [];
  });
}

/** Which of `count` rows of about `estimate` px to render, following the window's scroll. */
function useVisibleRows(count: number, estimate: number): VisibleRows {
  const ref = useRef<HTMLTableSectionElement & HTMLUListElement>(null);
  const enabled = count >= VIRTUAL_ROWS_FROM;
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    // Where the rows start on the page moves as the sections above load.
    const place = () => setTop(element.getBoundingClientRect().top + window.scrollY);
    place();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(place);
    observer?.observe(document.body);
    return () => observer?.disconnect();
  }, [enabled]);
  const virtualizer = useWindowVirtualizer({ count, estimateSize: () => estimate, overscan: ROW_OVERSCAN, scrollMargin: top, enabled });
  if (!enabled) return { ref, items: null, before: 0, after: 0, measure: () => {} };
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  return {
    ref,
    items,
    before: first ? first.start - top : 0,
    after: last ? virtualizer.getTotalSize() - (last.end - top) : 0,
    measure: virtualizer.measureElement,
  };
}

/** The holdings, sorted as the member chose (`PORTFOLIO_SORT`): a table when wide, rows on phones. */
export const HoldingsSection = memo(function HoldingsSection({ holdings, dimmed }: { holdings: readonly Holding[]; dimmed: boolean }) {
  const t = usePortfolioT();
  const locale = useLocale();
  const [sort, setSort] = useHoldingsSort();
  const wide = useWideScreen();
  // The controls show the new order at once; the rows move in a background render.
  const order = useDeferredValue(sort);
  const sorted = useMemo(() => sortHoldings(holdings, order, locale), [holdings, order, locale]);

  return (
    <section className="card pf-section" aria-labelledby="pf-holdings-title" data-testid="holdings" data-count={holdings.length}>
      <div className="pf-section__head">
        <h2 id="pf-holdings-title" className="pf-section__title">
          {t('holdings.title')}
        </h2>
        {holdings.length > 1 && <SortControls sort={sort} onChange={setSort} />}
      </div>
      {holdings.length === 0 ? (
        <p className="pf-empty">{t('holdings.empty')}</p>
      ) : wide ? (
        <HoldingsTable holdings={sorted} sort={sort} onSort={setSort} dimmed={dimmed} />
      ) : (
        <HoldingRows holdings={sorted} dimmed={dimmed} />
      )}
    </section>
  );
});

/** The holdings as rows (phones). */
function HoldingRows({ holdings, dimmed }: { holdings: readonly Holding[]; dimmed: boolean }) {
  const rows = useVisibleRows(holdings.length, LIST_ROW_PX);
  const shown = shownRows(rows, holdings);
  return (
    <ul
      ref={rows.ref}
      className={`pf-holding-rows${dimmed ? ' pf-stale' : ''}`}
      data-testid="holding-rows"
      style={rows.items ? { paddingTop: rows.before, paddingBottom: rows.after } : undefined}
    >
      {shown.map(([index, h]) => (
        <HoldingRow key={h.instrument} holding={h} index={index} count={holdings.length} rowRef={rows.items ? rows.measure : undefined} />
      ))}
    </ul>
  );
}

/** A sort key and direction, kept in `PORTFOLIO_SORT`. */
function SortControls({ sort, onChange }: { sort: PortfolioSort; onChange: (sort: PortfolioSort) => void }) {
  const t = usePortfolioT();
  const id = useId();
  const dirLabel = sort.dir === 'asc' ? t('holdings.ascending') : t('holdings.descending');
  return (
    <div className="pf-sort">
      <label htmlFor={id} className="pf-sort__label">
        {t('holdings.sort')}
      </label>
      <select
        id={id}
        className="pf-sort__select"
        value={sort.key}
        onChange={(e) => onChange({ key: e.target.value as SortKey, dir: sort.dir })}
        data-testid="sort-key"
      >
        {PORTFOLIO_SORT_KEYS.map((k) => (
          <option key={k} value={k}>
            {t(`holdings.sortKeys.${k}`)}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="pf-sort__dir button button--secondary"
        onClick={() => onChange({ key: sort.key, dir: sort.dir === 'asc' ? 'desc' : 'asc' })}
        aria-label={t('holdings.sortDirection', { dir: dirLabel })}
        data-testid="sort-dir"
        data-dir={sort.dir}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d={sort.dir === 'asc' ? 'M12 19V5m-6 6 6-6 6 6' : 'M12 5v14m-6-6 6 6 6-6'} strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
    </div>
  );
}

interface TableProps {
  holdings: readonly Holding[];
  sort: PortfolioSort;
  onSort: (sort: PortfolioSort) => void;
  dimmed: boolean;
}

/** Stands in for the table rows that are not rendered. */
function Spacer({ height }: { height: number }) {
  return (
    <tr aria-hidden="true" className="pf-table__spacer">
      <td colSpan={9} style={{ height }} />
    </tr>
  );
}

function HoldingsTable({ holdings, sort, onSort, dimmed }: TableProps) {
  const t = usePortfolioT();
  const rows = useVisibleRows(holdings.length, TABLE_ROW_PX);
  const shown = shownRows(rows, holdings);
  const header = (label: string, key?: SortKey, numeric = true) => {
    const active = key !== undefined && sort.key === key;
    const ariaSort = active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined;
    return (
      <th scope="col" className={numeric ? 'pf-num' : undefined} aria-sort={ariaSort}>
        {key ? (
          <button
            type="button"
            className="pf-th-button"
            onClick={() => onSort({ key, dir: active && sort.dir === 'desc' ? 'asc' : active ? 'desc' : key === 'name' ? 'asc' : 'desc' })}
            data-testid={`sort-header-${key}`}
          >
            {label}
            <span aria-hidden="true" className="pf-th-button__mark">
              {active ? (sort.dir === 'asc' ? '▲' : '▼') : ''}
            </span>
          </button>
        ) : (
          label
        )}
      </th>
    );
  };
  return (
    <div className="pf-table-wrap">
      <table className={`pf-table${dimmed ? ' pf-stale' : ''}`} data-testid="holdings-table" aria-rowcount={holdings.length + 1}>
        <thead>
          <tr>
            {header(t('holdings.name'), 'name', false)}
            {header(t('holdings.quantity'))}
            {header(t('holdings.averageCost'))}
            {header(t('holdings.price'))}
            {header(t('holdings.value'), 'value')}
            {header(t('holdings.gain'))}
            {header(t('holdings.returnPercent'), 'return')}
            {header(t('holdings.weight'))}
            {header(t('holdings.dayChange'), 'dailyChange')}
          </tr>
        </thead>
        <tbody ref={rows.ref}>
          {rows.before > 0 && <Spacer height={rows.before} />}
          {shown.map(([index, h]) => (
            <HoldingTableRow key={h.instrument} holding={h} index={index} rowRef={rows.items ? rows.measure : undefined} />
          ))}
          {rows.after > 0 && <Spacer height={rows.after} />}
        </tbody>
      </table>
    </div>
  );
}

function HoldingName({ holding }: { holding: Holding }) {
  const locale = useLocale();
  const t = usePortfolioT();
  const name = instrumentLabel(holding, holding.instrument, locale);
  return (
    <span className="pf-holding__names">
      <AppLink to={stockPath(holding.instrument)} className="pf-holding__name" data-testid="holding-name">
        {name}
      </AppLink>
      <span className="pf-holding__ticker">
        {holding.ticker}
        {holding.price_missing && <span className="pf-badge">{t('holdings.priceMissing')}</span>}
      </span>
    </span>
  );
}

/** Memoised: a new sort only moves the rows; each holding object stays the same. */
interface RowProps {
  holding: Holding;
  /** The row's place in the sorted holdings (from 0). */
  index: number;
  /** Measures the row when only the rows near the screen are rendered. */
  rowRef?: (element: Element | null) => void;
}

const HoldingTableRow = memo(function HoldingTableRow({ holding: h, index, rowRef }: RowProps) {
  const locale = useLocale();
  return (
    <tr data-testid="holding" data-id={h.instrument} data-index={index} ref={rowRef} aria-rowindex={index + 2}>
      <th scope="row">
        <HoldingName holding={h} />
      </th>
      <td className="pf-num">{formatQuantity(h.quantity, locale)}</td>
      <td className="pf-num">
        <Amount value={h.average_cost} currency={h.currency} unit />
      </td>
      <td className="pf-num">
        <Amount value={h.price} currency={h.currency} unit />
      </td>
      <td className="pf-num">
        <Amount value={h.market_value} currency={h.currency} testId="holding-value" />
      </td>
      <td className="pf-num">
        <Amount value={h.unrealised_gain} currency={h.currency} signed />
      </td>
      <td className="pf-num">
        <Percent value={h.return_percent} testId="holding-return" />
      </td>
      <td className="pf-num">
        <Percent value={h.weight_percent} weight />
      </td>
      <td className="pf-num">
        <Change amount={h.day_change} percent={h.day_change_percent} currency={h.currency} size="sm" />
      </td>
    </tr>
  );
});

/** One holding on a phone: name and value on top, the rest in two short lines. */
const HoldingRow = memo(function HoldingRow({ holding: h, index, count, rowRef }: RowProps & { count: number }) {
  const t = usePortfolioT();
  const locale = useLocale();
  return (
    <li className="pf-holding-row" data-testid="holding" data-id={h.instrument} data-index={index} ref={rowRef} aria-setsize={count} aria-posinset={index + 1}>
      <div className="pf-holding-row__top">
        <HoldingName holding={h} />
        <span className="pf-holding-row__value">
          <Amount value={h.market_value} currency={h.currency} testId="holding-value" />
          <Percent value={h.return_percent} testId="holding-return" />
        </span>
      </div>
      <dl className="pf-holding-row__figures">
        <div>
          <dt>{t('holdings.quantity')}</dt>
          <dd>{t('holdings.shares', { quantity: formatQuantity(h.quantity, locale) })}</dd>
        </div>
        <div>
          <dt>{t('holdings.averageCost')}</dt>
          <dd>
            <Amount value={h.average_cost} currency={h.currency} unit size="sm" />
          </dd>
        </div>
        <div>
          <dt>{t('holdings.price')}</dt>
          <dd>
            <Amount value={h.price} currency={h.currency} unit size="sm" />
          </dd>
        </div>
        <div>
          <dt>{t('holdings.gain')}</dt>
          <dd>
            <Amount value={h.unrealised_gain} currency={h.currency} signed size="sm" />
          </dd>
        </div>
        <div>
          <dt>{t('holdings.weight')}</dt>
          <dd>
            <Percent value={h.weight_percent} weight />
          </dd>
        </div>
        <div>
          <dt>{t('holdings.dayChange')}</dt>
          <dd>
            <Change amount={h.day_change} percent={h.day_change_percent} currency={h.currency} size="sm" />
          </dd>
        </div>
      </dl>
    </li>
  );
});
