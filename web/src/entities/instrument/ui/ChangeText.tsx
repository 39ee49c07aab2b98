import { formatPercent } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import type { Instrument, Quote } from '../api/types';
import { direction, formatChange } from '../model/format';
import './market.css';

export interface ChangeTextProps {
  quote: Pick<Quote, 'change' | 'change_percent'>;
  instrument: Pick<Instrument, 'kind' | 'currency'>;
  /** Only the percentage (compact rows). */
  percentOnly?: boolean;
  className?: string;
}

const ARROWS = { up: '▲', down: '▼', flat: '' } as const;

/** `▲ +1,200 (+1.71%)`, red when up and blue when down. */
export function ChangeText({ quote, instrument, percentOnly = false, className }: ChangeTextProps) {
  const locale = useLocale();
  const dir = direction(quote.change);
  const percent = formatPercent(quote.change_percent, locale);
  return (
    <span className={`market-change market-${dir}${className ? ` ${className}` : ''}`} data-direction={dir}>
      {ARROWS[dir] && (
        <span className="market-change__arrow" aria-hidden="true">
          {ARROWS[dir]}
        </span>
      )}
      {percentOnly ? percent : `${formatChange(quote.change, instrument, locale)} (${percent})`}
    </span>
  );
}
