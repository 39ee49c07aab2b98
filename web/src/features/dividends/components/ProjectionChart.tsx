import Big from 'big.js';
import { useId } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useAmountsLocked } from '@/entities/member/model/amounts-lock';
import { formatAmount, MASKED_AMOUNT } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { toBig } from '@/shared/lib/money';
import { Amount } from './Amount';
import { formatMonth, formatMonthShort } from '../lib/format';
import type { ProjectedMonth } from '../api/my-dividends';

/** The plot's own units; it stretches to its box, the labels are HTML under it. */
const WIDTH = 480;
const HEIGHT = 160;
const TOP = 6;

/** A bar's height in plot units: `value / max` of the plot (big.js; only the pixel is a float). */
function barHeight(value: string, max: Big): number {
  const v = toBig(value);
  if (max.lte(0) || v.lte(0)) return 0;
  return Number(v.div(max).times(HEIGHT - TOP).toFixed(2));
}

/**
 * The 12-month projection as paired bars (gross, and net after withholding) on one scale,
 * the month names under them, and the figures in a table (collapsed; a screen reader's
 * way into the chart).
 */
export function ProjectionChart({ months, currency }: { months: readonly ProjectedMonth[]; currency: string }) {
  const { t } = useTranslation('dividends');
  const locale = useLocale();
  const [locked] = useAmountsLocked();
  const titleId = useId();
  const max = months.reduce((m, x) => (toBig(x.gross).gt(m) ? toBig(x.gross) : m), new Big(0));
  const slot = WIDTH / Math.max(months.length, 1);
  const barWidth = slot * 0.32;
  const money = (value: string) => (locked ? MASKED_AMOUNT : formatAmount(value, currency, locale));

  return (
    <figure className="dividends-chart" data-testid="projection">
      <figcaption className="dividends-chart__legend">
        <span className="dividends-chart__key dividends-chart__key--gross" aria-hidden="true" />
        {t('me.projection.gross')}
        <span className="dividends-chart__key dividends-chart__key--net" aria-hidden="true" />
        {t('me.projection.net')}
      </figcaption>
      <svg
        className="dividends-chart__plot"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-labelledby={titleId}
      >
        <title id={titleId}>{t('me.projection.chart')}</title>
        {months.map((m, i) => {
          const gross = barHeight(m.gross, max);
          const net = barHeight(m.net, max);
          const x = i * slot + slot / 2 - barWidth;
          return (
            <g key={m.month} data-testid="projection-month" data-month={m.month} data-gross-height={gross} data-net-height={net}>
              <title>
                {t('me.projection.monthValues', { month: formatMonth(m.month, locale), gross: money(m.gross), net: money(m.net) })}
              </title>
              <rect className="dividends-chart__bar dividends-chart__bar--gross" x={x} y={HEIGHT - gross} width={barWidth} height={gross} />
              <rect className="dividends-chart__bar dividends-chart__bar--net" x={x + barWidth} y={HEIGHT - net} width={barWidth} height={net} />
            </g>
          );
        })}
        <line className="dividends-chart__axis" x1="0" x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} vectorEffect="non-scaling-stroke" />
      </svg>
      <ol className="dividends-chart__months" aria-hidden="true">
        {months.map((m) => (
          <li key={m.month}>{formatMonthShort(m.month, locale)}</li>
        ))}
      </ol>
      <details className="dividends-chart__details">
        <summary>{t('me.projection.table')}</summary>
        <table className="dividends-table" data-testid="projection-table">
          <thead>
            <tr>
              <th scope="col">{t('me.projection.month')}</th>
              <th scope="col">{t('me.projection.gross')}</th>
              <th scope="col">{t('me.projection.net')}</th>
            </tr>
          </thead>
          <tbody>
            {months.map((m) => (
              <tr key={m.month} data-month={m.month}>
                <th scope="row">{formatMonth(m.month, locale)}</th>
                <td>
                  <Amount text={formatAmount(m.gross, currency, locale)} />
                </td>
                <td>
                  <Amount text={formatAmount(m.net, currency, locale)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
