import { memo, useState } from 'react';
import { instrumentLabel, symbolOf } from '@/entities/instrument/model/ids';
import { intlLocale } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import type { Locale } from '@/shared/lib/storage';
import { usePortfolioT, type PortfolioT } from '../locales/messages';
import { Amount, LoadFailed, Percent } from './ui';
import { SegmentedControl } from '@/shared/ui/segmented/SegmentedControl';
import { ALLOCATION_BYS, type AllocationBy, type Slice, useAllocation } from '../api/allocation';
import type { CurrencyParam, PortfolioRef } from '../api/keys';
import type { Valuation } from '../api/valuation';

const CASH_KEY = 'cash';
const UNKNOWN_KEY = 'unknown';
/** Slices drawn in their own colour; the rest are drawn together as one grey "other" arc. */
const COLOURS = 8;

interface Props {
  id: PortfolioRef;
  currency: CurrencyParam;
  valuation: Valuation | undefined;
}

/** How the portfolio's value splits, by holding, sector, country, currency or asset class: a donut and its legend. */
export const AllocationSection = memo(function AllocationSection({ id, currency, valuation }: Props) {
  const t = usePortfolioT();
  const [by, setBy] = useState<AllocationBy>('holding');
  const remote = useAllocation(id, by, currency);
  const slices = remote.data;

  return (
    <section className="card pf-section" aria-labelledby="pf-allocation-title" data-testid="allocation">
      <div className="pf-section__head">
        <h2 id="pf-allocation-title" className="pf-section__title">
          {t('allocation.title')}
        </h2>
      </div>
      <SegmentedControl
        overflow="scroll"
        label={t('allocation.title')}
        segments={ALLOCATION_BYS.map((b) => ({ value: b, label: t(`allocation.by.${b}`), testId: `allocation-by-${b}` }))}
        value={by}
        onChange={setBy}
      />
      {remote.isError && !remote.data ? (
        <LoadFailed onRetry={() => void remote.refetch()} />
      ) : !slices ? (
        <div className="pf-allocation pf-allocation--loading" aria-busy="true" />
      ) : slices.length === 0 ? (
        <p className="pf-empty">{t('allocation.empty')}</p>
      ) : (
        <Donut
          slices={slices}
          by={by}
          currency={valuation?.totals.currency ?? 'KRW'}
          valuation={valuation}
          dimmed={remote.isPlaceholderData}
        />
      )}
    </section>
  );
});

interface DonutProps {
  slices: readonly Slice[];
  by: AllocationBy;
  currency: string;
  valuation: Valuation | undefined;
  dimmed: boolean;
}

function Donut({ slices, by, currency, valuation, dimmed }: DonutProps) {
  const t = usePortfolioT();
  const locale = useLocale();
  const label = (key: string) => sliceLabel(key, by, t, locale, valuation);
  // Numbers for drawing only; every figure written out is the server's decimal string.
  const arcs = slices.map((s) => Math.max(0, Number(s.weight_percent)));
  const total = arcs.reduce((a, b) => a + b, 0) || 1;
  let start = 0;
  return (
    <div className={`pf-allocation${dimmed ? ' pf-stale' : ''}`}>
      <svg className="pf-donut" viewBox="0 0 42 42" role="img" aria-label={t('allocation.chartLabel', { by: t(`allocation.by.${by}`) })}>
        <circle className="pf-donut__track" cx="21" cy="21" r="15.915" fill="none" strokeWidth="6" />
        {arcs.map((a, i) => {
          const length = (a / total) * 100;
          const offset = 25 - start;
          start += length;
          if (length <= 0) return null;
          return (
            <circle
              key={slices[i]!.key}
              className={`pf-donut__arc pf-colour-${Math.min(i, COLOURS)}`}
              cx="21"
              cy="21"
              r="15.915"
              fill="none"
              strokeWidth="6"
              strokeDasharray={`${length} ${100 - length}`}
              strokeDashoffset={offset}
            />
          );
        })}
      </svg>
      <ul className="pf-legend" data-testid="allocation-legend">
        {slices.map((s, i) => (
          <li key={s.key} className="pf-legend__item" data-key={s.key}>
            <span className={`pf-legend__swatch pf-colour-${Math.min(i, COLOURS)}`} aria-hidden="true" />
            <span className="pf-legend__label">{label(s.key)}</span>
            <Percent value={s.weight_percent} weight className="pf-legend__weight" />
            <Amount value={s.value} currency={currency} size="sm" className="pf-legend__value" />
          </li>
        ))}
      </ul>
    </div>
  );
}

function displayName(locale: Locale, type: 'region' | 'currency', code: string): string {
  try {
    return new Intl.DisplayNames([intlLocale(locale)], { type }).of(code) ?? code;
  } catch {
    return code;
  }
}

const isSector = (key: string, t: PortfolioT): string | undefined => {
  const known = [
    'Information Technology',
    'Communication Services',
    'Consumer Discretionary',
    'Consumer Staples',
    'Energy',
    'Financials',
    'Health Care',
    'Industrials',
    'Materials',
    'Real Estate',
    'Utilities',
  ] as const;
  const hit = known.find((k) => k === key);
  return hit ? t(`sectors.${hit}`) : undefined;
};

/** A slice's name: the holding's name, a translated sector, a country's or currency's name. */
export function sliceLabel(key: string, by: AllocationBy, t: PortfolioT, locale: Locale, valuation?: Valuation): string {
  if (key === CASH_KEY) return t('allocation.cash');
  if (key === UNKNOWN_KEY) return t('allocation.unknown');
  switch (by) {
    case 'holding': {
      const h = valuation?.holdings.find((x) => x.instrument === key);
      return h ? instrumentLabel(h, h.instrument, locale) : symbolOf(key);
    }
    case 'sector':
      return isSector(key, t) ?? key;
    case 'country':
      return /^[A-Z]{2}$/.test(key) ? displayName(locale, 'region', key) : key;
    case 'currency':
      return /^[A-Z]{3}$/.test(key) ? `${key} · ${displayName(locale, 'currency', key)}` : key;
    case 'asset_class':
      return key === 'stock' || key === 'etf' || key === 'crypto' || key === 'other' ? t(`allocation.assetClass.${key}`) : key;
  }
}
