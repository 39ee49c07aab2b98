import type { ReactNode } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import type { InstrumentDetail } from '../api/types';
import { direction, formatPrice, NO_VALUE } from '../model/format';
import { instrumentNames, MARKET_TIME_ZONES, marketZone } from '../model/ids';
import { useLiveQuote } from '../api/live-quote';
import { ChangeText } from './ChangeText';
import { ExchangeBadge } from './ExchangeBadge';
import { QuoteBadges } from './QuoteBadges';
import './price-header.css';
import { formatDate } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';

export interface PriceHeaderProps {
  instrument: InstrumentDetail;
  /** Beside the names: what other areas offer on the instrument (the favourite star, …). */
  actions?: ReactNode;
}

/**
 * A stock page's heading: names (the `h1`), ticker and market, the live price and change,
 * when it was current, and what kind of price it is.
 */
export function PriceHeader({ instrument, actions }: PriceHeaderProps) {
  const { t } = useTranslation('market');
  const locale = useLocale();
  // `useInstrument` seeded the cache with the quote it carried; the stream keeps it current.
  const quote = useLiveQuote(instrument.id).data ?? instrument.quote;
  const { primary, secondary } = instrumentNames(instrument, locale);
  // When the price was current, on the exchange's clock and saying so (a Seoul reader
  // of a US stock sees New York time, as the exchange and the news write it).
  const zone = marketZone(instrument);
  const time = quote
    ? formatDate(quote.as_of, locale, {
        dateStyle: 'medium',
        timeStyle: 'medium',
        ...(zone && { timeZone: MARKET_TIME_ZONES[zone] }),
      })
    : '';
  const asOf = time && (zone ? t('asOfZone', { time, zone: t(`zone.${zone}`) }) : t('asOf', { time }));
  return (
    <header className="stock-head">
      <div className="stock-head__top">
        <div className="stock-head__names">
          <h1 className="stock-head__name">{primary}</h1>
          <p className="stock-head__meta">
            {secondary && <span>{secondary}</span>}
            <span className="stock-head__ticker">{instrument.ticker}</span>
            <ExchangeBadge instrument={instrument} />
          </p>
        </div>
        {actions}
      </div>
      {quote ? (
        <>
          <div className="stock-head__quote" data-testid="stock-quote">
            <p className={`stock-head__price market-${direction(quote.change)}`} data-testid="stock-price">
              {formatPrice(quote.price, instrument, locale)}
            </p>
            <ChangeText quote={quote} instrument={instrument} className="stock-head__change" />
          </div>
          <p className="stock-head__status">
            {asOf && <span className="stock-head__as-of" data-testid="stock-as-of">{asOf}</span>}
            <QuoteBadges quote={quote} />
          </p>
        </>
      ) : (
        // No price yet: the stream (or a later answer) brings the first one.
        <p className="stock-head__price market-flat" data-testid="stock-price">
          {NO_VALUE}
        </p>
      )}
    </header>
  );
}
