import type { ReactNode } from 'react';
import { useLocale } from '@/shared/i18n/useLocale';
import { AppLink } from '@/shared/ui/AppLink';
import type { Instrument, Quote } from '../api/types';
import { formatPrice } from '../model/format';
import { instrumentNames, stockPath } from '../model/ids';
import { useLiveQuote } from '../api/live-quote';
import { ChangeText } from './ChangeText';
import { ExchangeBadge } from './ExchangeBadge';
import './instrument-row.css';

export interface InstrumentRowProps {
  instrument: Instrument;
  /** A quote that came with the list, shown until the cache has one. */
  quote?: Quote | undefined;
  /**
   * Whether to ask `/quote` when the cache has none (favourites); lists that carry
   * quotes (overview, instrument details) have seeded the cache already.
   */
  fetchQuote?: boolean;
  /** Extra content after the price (e.g. a remove button outside the link). */
  children?: ReactNode;
}

/** One instrument in a list: names, ticker and market, live price and change; a link to its page. */
export function InstrumentRow({ instrument, quote: fallback, fetchQuote = false, children }: InstrumentRowProps) {
  const locale = useLocale();
  const live = useLiveQuote(instrument.id, { enabled: fetchQuote });
  const quote = live.data ?? fallback;
  const { primary } = instrumentNames(instrument, locale);
  return (
    <li className="instrument-row" data-testid="instrument-row" data-id={instrument.id}>
      <AppLink to={stockPath(instrument.id)} className="instrument-row__link">
        <span className="instrument-row__names">
          <span className="instrument-row__name">{primary}</span>
          <span className="instrument-row__meta">
            <span className="instrument-row__ticker">{instrument.ticker}</span>
            <ExchangeBadge instrument={instrument} />
          </span>
        </span>
        <span className="instrument-row__quote">
          {quote ? (
            <>
              <span className="instrument-row__price" data-testid="row-price">
                {formatPrice(quote.price, instrument, locale)}
              </span>
              <ChangeText quote={quote} instrument={instrument} percentOnly className="instrument-row__change" />
            </>
          ) : (
            <>
              <span className="market-skeleton instrument-row__price-skeleton" />
              <span className="market-skeleton instrument-row__change-skeleton" />
            </>
          )}
        </span>
      </AppLink>
      {children}
    </li>
  );
}
