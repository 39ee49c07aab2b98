import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useDebouncedValue } from '@/shared/hooks/useDebouncedValue';
import { useLocale } from '@/shared/i18n/useLocale';
import type { Instrument } from '@/entities/instrument/api/types';
import { instrumentNames } from '@/entities/instrument/model/ids';
import { normaliseQuery, SEARCH_MAX_CHARS, useInstrumentSearch } from '@/entities/instrument/api/search';
import { ExchangeBadge } from '@/entities/instrument/ui/ExchangeBadge';
import { usePortfolioT } from './messages';

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
 * Picks an instrument through the instrument search (`/api/instruments/search`): a
 * combobox whose results follow the typing (debounced); ↑/↓ move, Enter chooses,
 * Escape steps back. Text still being composed by an input method is not searched.
 */
export function InstrumentPicker({ label, value, onChange, error, disabled = false }: InstrumentPickerProps) {
  const t = usePortfolioT();
  const locale = useLocale();
  const id = useId();
  const [text, setText] = useState('');
  const [committed, setCommitted] = useState('');
  const composing = useRef(false);
  const query = useDebouncedValue(normaliseQuery(committed), PICKER_DEBOUNCE_MS);
  const search = useInstrumentSearch(query);
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  const changeRef = useRef<HTMLButtonElement>(null);
  const [announcement, setAnnouncement] = useState('');
  const results = query ? (search.data ?? []).filter(holdable) : [];
  const open = results.length > 0;
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-option-${i}`;
  const errorId = `${id}-error`;

  useEffect(() => setActive(-1), [query, search.data]);
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const choose = (instrument: Instrument) => {
    onChange(instrument);
    setText('');
    setCommitted('');
    setAnnouncement(t('form.instrumentChosen', { name: instrumentNames(instrument, locale).primary }));
    requestAnimationFrame(() => changeRef.current?.focus());
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (composing.current || event.nativeEvent.isComposing) return;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (results.length) setActive((i) => (i + 1) % results.length);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (results.length) setActive((i) => (i <= 0 ? results.length - 1 : i - 1));
        break;
      case 'Enter': {
        // Enter in the box chooses; it never submits the form.
        event.preventDefault();
        const target = results[active >= 0 ? active : 0];
        if (target) choose(target);
        break;
      }
      case 'Escape':
        if (active >= 0) {
          event.preventDefault();
          setActive(-1);
        } else if (text) {
          event.preventDefault();
          setText('');
          setCommitted('');
        }
        break;
    }
  };

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
              requestAnimationFrame(() => inputRef.current?.focus());
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
      <label htmlFor={`${id}-input`} className="field__label">
        {label}
      </label>
      <input
        ref={inputRef}
        id={`${id}-input`}
        className="field__input"
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={active >= 0 ? optionId(active) : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={[`${id}-hint`, error ? errorId : ''].filter(Boolean).join(' ')}
        autoComplete="off"
        autoCorrect="off"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={SEARCH_MAX_CHARS}
        placeholder={t('form.instrumentPlaceholder')}
        value={text}
        disabled={disabled}
        onChange={(event) => {
          setText(event.target.value);
          if (!composing.current) setCommitted(event.target.value);
        }}
        onCompositionStart={() => {
          composing.current = true;
        }}
        onCompositionEnd={(event) => {
          composing.current = false;
          setCommitted(event.currentTarget.value);
        }}
        onKeyDown={onKeyDown}
        data-testid="instrument-input"
        name="instrument_id"
      />
      <p id={`${id}-hint`} className="visually-hidden">
        {t('form.instrumentHint')}
      </p>
      <ul id={listId} role="listbox" aria-label={t('form.instrumentResults')} className={`pf-picker__list${open ? '' : ' pf-picker__list--empty'}`} data-testid="instrument-options">
        {results.map((instrument, i) => {
          const names = instrumentNames(instrument, locale);
          return (
            <li
              key={instrument.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className="pf-picker__option"
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(instrument)}
              onMouseMove={i === active ? undefined : () => setActive(i)}
              data-testid="instrument-option"
              data-id={instrument.id}
            >
              <span className="pf-picker__name">{names.primary}</span>
              <span className="pf-picker__meta">
                {instrument.ticker} <ExchangeBadge instrument={instrument} />
              </span>
            </li>
          );
        })}
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
