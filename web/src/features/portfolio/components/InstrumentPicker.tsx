import { useId, useRef, useState } from 'react';
import { SEARCH_MAX_CHARS } from '@/entities/instrument/api/search';
import type { Instrument } from '@/entities/instrument/api/types';
import { instrumentNames } from '@/entities/instrument/model/ids';
import { useInstrumentCombobox } from '@/entities/instrument/model/useInstrumentCombobox';
import { ExchangeBadge } from '@/entities/instrument/ui/ExchangeBadge';
import { InstrumentOption } from '@/entities/instrument/ui/InstrumentOption';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePortfolioT } from '../locales/messages';

/** Typing must pause this long before a search is sent. */
export const PICKER_DEBOUNCE_MS = 200;

/** What can be held: not indices or exchange rates. */
const holdable = (i: Instrument) => i.kind === 'stock' || i.kind === 'etf' || i.kind === 'crypto';

export interface InstrumentPickerProps {
  label: string;
  /** The chosen instrument (or, while it loads, just its id). */
  value: Instrument | string | null;
  onChange: (instrument: Instrument | null) => void;
  error?: string | undefined;
  disabled?: boolean;
}

/**
 * Picks an instrument with the instrument combobox (`entities/instrument`): results
 * follow the typing (debounced), only what can be held; ↑/↓ move, Enter chooses, Escape
 * steps back. Text still being composed by an input method is not searched.
 */
export function InstrumentPicker({ label, value, onChange, error, disabled = false }: InstrumentPickerProps) {
  const t = usePortfolioT();
  const locale = useLocale();
  const id = useId();
  const changeRef = useRef<HTMLButtonElement>(null);
  const [announcement, setAnnouncement] = useState('');
  const { text, combobox, query, search, results } = useInstrumentCombobox({
    debounceMs: PICKER_DEBOUNCE_MS,
    filter: holdable,
    onChoose: (_id, instrument) => {
      if (!instrument) return;
      onChange(instrument);
      text.clear();
      setAnnouncement(t('form.instrumentChosen', { name: instrumentNames(instrument, locale).primary }));
      requestAnimationFrame(() => changeRef.current?.focus());
    },
  });
  const open = results.length > 0;
  const errorId = `${id}-error`;
  const hintId = `${combobox.inputId}-hint`;

  if (value) {
    const chosen = typeof value === 'string' ? undefined : value;
    const names = chosen ? instrumentNames(chosen, locale) : undefined;
    return (
      <div className="field">
        <span className="field__label" id={`${id}-label`}>
          {label}
        </span>
        <div className="pf-picked" aria-labelledby={`${id}-label`} data-testid="picked-instrument" data-id={typeof value === 'string' ? value : value.id}>
          <span className="pf-picked__names">
            <span className="pf-picked__name">{names?.primary ?? (typeof value === 'string' ? value : value.id)}</span>
            {chosen && (
              <span className="pf-picked__meta">
                {chosen.ticker} <ExchangeBadge instrument={chosen} />
              </span>
            )}
          </span>
          <button
            ref={changeRef}
            type="button"
            className="button button--secondary"
            onClick={() => {
              onChange(null);
              requestAnimationFrame(() => combobox.inputProps.ref.current?.focus());
            }}
            disabled={disabled}
            data-testid="instrument-change"
          >
            {t('form.instrumentChange')}
          </button>
        </div>
        <p className="visually-hidden" role="status">
          {announcement}
        </p>
      </div>
    );
  }

  const status = !query ? '' : search.isError ? t('errors.unknown') : search.data && !search.isPlaceholderData && !results.length ? t('form.instrumentNone', { query }) : '';

  return (
    <div className="field pf-picker">
      <label htmlFor={combobox.inputId} className="field__label">
        {label}
      </label>
      <input
        {...combobox.inputProps}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, error ? errorId : ''].filter(Boolean).join(' ')}
        maxLength={SEARCH_MAX_CHARS}
        placeholder={t('form.instrumentPlaceholder')}
        disabled={disabled}
        data-testid="instrument-input"
        name="instrument_id"
      />
      <p id={hintId} className="visually-hidden">
        {t('form.instrumentHint')}
      </p>
      <ul
        {...combobox.listboxProps}
        aria-label={t('form.instrumentResults')}
        className={`pf-picker__list${open ? '' : ' pf-picker__list--empty'}`}
        data-testid="instrument-options"
      >
        {results.map((instrument, i) => (
          <InstrumentOption key={instrument.id} instrument={instrument} optionProps={combobox.optionProps(i)} compact testId="instrument-option" />
        ))}
      </ul>
      <p className="field__hint" role="status">
        {status}
      </p>
      {error && (
        <p id={errorId} className="field__error" data-testid="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
