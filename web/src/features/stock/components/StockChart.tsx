import { lazy, Suspense, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useSearchParams } from 'react-router';
import { useInstrument } from '@/entities/instrument/api/instrument';
import { useQuote } from '@/entities/instrument/api/quote';
import type { Instrument } from '@/entities/instrument/api/types';
import type { StockSlotProps } from '@/shared/area/types';
import { SectionCard } from '@/shared/ui/card/SectionCard';
import { CANDLE_RANGES, candlesQueryOptions, DEFAULT_CANDLE_RANGE, isCandleRange, type CandleRange } from '../api/candles';
import type { ChartMode } from './ChartCanvas';
import './stock.css';
import { SegmentedControl } from '@/shared/ui/segmented/SegmentedControl';

// lightweight-charts (~60 KiB gzip) comes with the chart itself, in its own chunk.
const ChartCanvas = lazy(() => import('./ChartCanvas'));

const MODES: readonly ChartMode[] = ['line', 'candle'];

export { messagesReady } from '../locales/messages';

/** A stock page's chart (slot `stockSections`): range buttons (kept in `?range=`), line or candles, and the chart. */
export function StockChart({ instrumentId }: StockSlotProps) {
  const instrument = useInstrument(instrumentId).data;
  return instrument ? <Chart instrument={instrument} /> : null;
}

function Chart({ instrument }: { instrument: Instrument }) {
  const { t } = useTranslation('stock');
  const [params, setParams] = useSearchParams();
  const raw = params.get('range');
  const range: CandleRange = isCandleRange(raw) ? raw : DEFAULT_CANDLE_RANGE;
  const [mode, setMode] = useState<ChartMode>('line');
  const candles = useQuery({ ...candlesQueryOptions(instrument.id, range), placeholderData: keepPreviousData });
  // The 1-day chart draws the previous close (the quote the page shows already).
  const quote = useQuote(instrument.id, { enabled: range === '1D' }).data;

  const chooseRange = (next: CandleRange) => {
    setParams(
      (p) => {
        const copy = new URLSearchParams(p);
        copy.set('range', next);
        return copy;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  return (
    <SectionCard
      className="chart"
      title={t('chart.title')}
      testId="stock-chart"
      actions={
        <SegmentedControl
          label={t('chart.modes')}
          segments={MODES.map((m) => ({ value: m, label: t(`chart.${m}`) }))}
          value={mode}
          onChange={setMode}
        />
      }
    >
      <SegmentedControl
        className="chart__ranges"
        label={t('chart.ranges')}
        segments={CANDLE_RANGES.map((r) => ({ value: r, label: t(`chart.range.${r}`), testId: `range-${r}` }))}
        value={range}
        onChange={chooseRange}
      />
      <div className="chart__body" aria-busy={candles.isFetching}>
        {candles.isError && !candles.data ? (
          <div className="chart__message" role="alert">
            <p>{t('chart.failed')}</p>
            <button type="button" className="button button--secondary" onClick={() => void candles.refetch()}>
              {t('retry')}
            </button>
          </div>
        ) : !candles.data ? (
          <div className="chart__placeholder" />
        ) : candles.data.candles.length === 0 ? (
          <p className="chart__message">{t('chart.empty')}</p>
        ) : (
          <Suspense fallback={<div className="chart__placeholder" />}>
            <ChartCanvas
              data={candles.data}
              instrument={instrument}
              mode={mode}
              dimmed={candles.isPlaceholderData}
              previousClose={range === '1D' ? quote?.previous_close : undefined}
            />
          </Suspense>
        )}
      </div>
      <p className="chart__credit">
        <a href="https://www.tradingview.com/" target="_blank" rel="noopener noreferrer">
          {t('chart.credit')}
        </a>
      </p>
    </SectionCard>
  );
}
