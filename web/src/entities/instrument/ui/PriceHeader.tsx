import { useTranslation } from 'react-i18next';
import type { InstrumentDetail } from '@/entities/instrument/api/types';
import { direction, formatPrice, NO_VALUE } from '@/entities/instrument/model/format';
import { instrumentNames, MARKET_TIME_ZONES, marketZone } from '@/entities/instrument/model/ids';
import { useLiveQuote } from '@/entities/instrument/api/live-quote';
import { ChangeText } from '@/entities/instrument/ui/ChangeText';
import { ExchangeBadge } from '@/entities/instrument/ui/ExchangeBadge';
import { QuoteBadges } from '@/entities/instrument/ui/QuoteBadges';
import { formatDate } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { FavoriteButton } from '@/features/favorites/components/FavoriteButton';

/** Names, the live price and change, when it was current, and what kind of price it is. */
export function PriceHeader({ instrument }: { instrument: InstrumentDetail }) {
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
        <FavoriteButton instrument={instrument} />
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
