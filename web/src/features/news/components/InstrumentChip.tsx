/** An instrument an article names: its name and today's change, live, linking to its page (red up, blue down in Korean). */
import { useLiveQuote } from '@/entities/instrument/api/live-quote';
import { instrumentNames, isInstrumentId, stockPath } from '@/entities/instrument/model/ids';
import { direction } from '@/entities/instrument/model/format';
import { formatPercent } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { AppLink } from '@/shared/ui/AppLink';
import type { InstrumentLink } from '../api/types';
import '@/entities/instrument/ui/market.css';

export function InstrumentChip({ link }: { link: InstrumentLink }) {
  const locale = useLocale();
  const name = instrumentNames(link, locale).primary || link.ticker;
  const known = isInstrumentId(link.instrument_id);
  const quote = useLiveQuote(link.instrument_id, { enabled: known }).data;
  const dir = quote ? direction(quote.change) : 'flat';
  return (
    <AppLink to={stockPath(link.instrument_id)} className="news-chip">
      <span className="news-chip__name">{name}</span>
      {/* A space for the link's accessible name (flex layout ignores it on screen). */}
      {quote && ' '}
      {quote && <span className={`news-chip__change market-${dir}`}>{formatPercent(quote.change_percent, locale)}</span>}
    </AppLink>
  );
}

/** At most this many chips on a row of a list (the article's page shows them all). */
export const ROW_CHIPS_MAX = 3;

export function InstrumentChips({ links, label, max }: { links: readonly InstrumentLink[]; label: string; max?: number }) {
  if (links.length === 0) return null;
  const shown = max === undefined ? links : links.slice(0, max);
  return (
    <ul className="news-chips" aria-label={label}>
      {shown.map((link) => (
        <li key={link.instrument_id}>
          <InstrumentChip link={link} />
        </li>
      ))}
    </ul>
  );
}
