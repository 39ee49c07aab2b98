import type { LiHTMLAttributes } from 'react';
import { useLocale } from '@/shared/i18n/useLocale';
import { useInstrument } from '../api/instrument';
import type { Instrument, InstrumentId } from '../api/types';
import { instrumentNames, symbolOf } from '../model/ids';
import { ExchangeBadge } from './ExchangeBadge';
import './instrument-option.css';

export interface InstrumentOptionProps {
  instrument: Instrument;
  /** `useCombobox().optionProps(index)`: id, role, selection, pointer handling. */
  optionProps: LiHTMLAttributes<HTMLLIElement>;
  /** Also the name in the other language, under the first. */
  withSecondary?: boolean;
  /** A denser row (a dropdown under a form field). */
  compact?: boolean;
  testId?: string;
}

/** One instrument in a combobox's list: its name (in the page's language), ticker and market. */
export function InstrumentOption({ instrument, optionProps, withSecondary = false, compact = false, testId }: InstrumentOptionProps) {
  const locale = useLocale();
  const { primary, secondary } = instrumentNames(instrument, locale);
  return (
    <li
      {...optionProps}
      className={`instrument-option${compact ? ' instrument-option--compact' : ''}`}
      data-testid={testId}
      data-id={instrument.id}
    >
      <span className="instrument-option__names">
        <span className="instrument-option__name">{primary}</span>
        {withSecondary && secondary && <span className="instrument-option__secondary">{secondary}</span>}
      </span>
      <span className="instrument-option__meta">
        <span className="instrument-option__ticker">{instrument.ticker}</span>
        <ExchangeBadge instrument={instrument} />
      </span>
    </li>
  );
}

/** An option known only by its id (a recently viewed stock): shown with its ticker until its details arrive. */
export function InstrumentIdOption({ id, ...props }: Omit<InstrumentOptionProps, 'instrument'> & { id: InstrumentId }) {
  const detail = useInstrument(id);
  const symbol = symbolOf(id);
  const instrument: Instrument = detail.data ?? {
    id,
    ticker: symbol,
    exchange: id.slice(0, id.indexOf(':')) as Instrument['exchange'],
    board: null,
    kind: 'stock',
    currency: '',
    country: '',
    name_ko: symbol,
    name_en: symbol,
    sector: '',
    shares_outstanding: null,
    simulated: false,
  };
  return <InstrumentOption instrument={instrument} {...props} />;
}
