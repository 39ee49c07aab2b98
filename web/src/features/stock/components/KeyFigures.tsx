import { useTranslation } from '@/shared/i18n/useTranslation';
import { useInstrument } from '@/entities/instrument/api/instrument';
import type { StockSlotProps } from '@/shared/area/types';
import { SectionCard } from '@/shared/ui/card/SectionCard';
import './stock.css';
import { formatNumber } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import type { Decimal, InstrumentDetail } from '@/entities/instrument/api/types';
import { formatCompactMoney, formatPrice, formatVolume, NO_VALUE } from '@/entities/instrument/model/format';
import { useQuote } from '@/entities/instrument/api/quote';

type FigureKey = 'previousClose' | 'open' | 'dayRange' | 'week52Range' | 'volume' | 'marketCap' | 'dividendYield';

export { messagesReady } from '../locales/messages';

/** A stock page's key figures (slot `stockSections`): previous close, open, day and 52-week ranges, volume, market cap, dividend yield ("—" when unknown). */
export function KeyFigures({ instrumentId }: StockSlotProps) {
  const instrument = useInstrument(instrumentId).data;
  return instrument ? <Figures instrument={instrument} /> : null;
}

function Figures({ instrument }: { instrument: InstrumentDetail }) {
  const { t } = useTranslation('stock');
  const locale = useLocale();
  // The live quote (the header subscribes) has the session's own open, range and volume.
  const quote = useQuote(instrument.id, { enabled: false }).data ?? instrument.quote ?? undefined;
  const { stats } = instrument;
  const price = (v: Decimal | null | undefined) => (v == null ? NO_VALUE : formatPrice(v, instrument, locale));
  const range = (low: Decimal | null | undefined, high: Decimal | null | undefined) =>
    low == null || high == null ? NO_VALUE : `${price(low)} – ${price(high)}`;
  const volume = quote?.volume ?? stats.volume;
  const figures: [FigureKey, string][] = [
    ['previousClose', price(quote?.previous_close ?? stats.previous_close)],
    ['open', price(quote?.open ?? stats.open)],
    ['dayRange', range(quote?.low ?? stats.day_low, quote?.high ?? stats.day_high)],
    ['week52Range', range(stats.week52_low, stats.week52_high)],
    ['volume', volume == null ? NO_VALUE : formatVolume(volume, locale)],
    ['marketCap', stats.market_cap == null ? NO_VALUE : formatCompactMoney(stats.market_cap, instrument.currency, locale)],
    [
      'dividendYield',
      stats.dividend_yield == null
        ? NO_VALUE
        : `${formatNumber(stats.dividend_yield, locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}%`,
    ],
  ];
  return (
    <SectionCard title={t('figures.title')}>
      <dl className="figures" data-testid="key-figures">
        {figures.map(([key, value]) => (
          <div key={key} className="figures__item" data-testid={`figure-${key}`}>
            <dt className="figures__label">{t(`figures.${key}`)}</dt>
            <dd className="figures__value">{value}</dd>
          </div>
        ))}
      </dl>
    </SectionCard>
  );
}
