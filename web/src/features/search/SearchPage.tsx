import { useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useLocale } from '@/shared/i18n/useLocale';
import type { Instrument, InstrumentId } from '@/entities/instrument/api/types';
import { instrumentNames, stockPath } from '@/entities/instrument/model/ids';
import { useInstrument } from '@/entities/instrument/api/instrument';
import { clearRecentStocks, useRecentStocks } from '@/entities/instrument/model/recent';
import { normaliseQuery, SEARCH_MAX_CHARS, useInstrumentSearch } from '@/entities/instrument/api/search';
import { ExchangeBadge } from '@/entities/instrument/ui/ExchangeBadge';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { useToast } from '@/shared/ui/toast';
import { useDebouncedValue } from '@/shared/hooks/useDebouncedValue';
import './search.css';

export { messagesReady } from './messages';

/** Typing must pause this long before a search is sent. */
export const SEARCH_DEBOUNCE_MS = 150;

/**
 * `/search`: a combobox with instant results as one types (`?q=` keeps the query for the
 * way back), the recently viewed stocks while the box is empty. Arrow keys move through
 * the list, Enter opens, Escape steps back. Text still being composed by an input method
 * (Korean syllables) is not searched until the composition ends.
 */
export function SearchPage() {
  const { t } = useTranslation('search');
  usePageMeta({ title: t('meta.title'), description: t('meta.description') });
  const navigate = useNavigate();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(() => params.get('q') ?? '');
  /** The box's text as of the last moment no composition was in progress. */
  const [committed, setCommitted] = useState(text);
  const composing = useRef(false);
  const query = useDebouncedValue(normaliseQuery(committed), SEARCH_DEBOUNCE_MS);
  const search = useInstrumentSearch(query);
  const recent = useRecentStocks();
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-option-${i}`;

  const showRecent = normaliseQuery(committed) === '';
  const results = search.data ?? [];
  const ids: InstrumentId[] = showRecent ? recent : results.map((r) => r.id);

  // A new list starts with nothing highlighted.
  useEffect(() => setActive(-1), [showRecent, query, search.data]);

  // The query goes into the address (replacing the entry), so "back" returns to it.
  useEffect(() => {
    if ((params.get('q') ?? '') === query) return;
    setParams(query ? { q: query } : {}, { replace: true, preventScrollReset: true });
  }, [query]);

  useEffect(() => {
    document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const open = (target: InstrumentId) => void navigate(stockPath(target));

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    setText(value);
    if (!composing.current) setCommitted(value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Keys that finish a composition belong to the input method (Enter would open too early).
    if (composing.current || event.nativeEvent.isComposing) return;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (ids.length) setActive((i) => (i + 1) % ids.length);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (ids.length) setActive((i) => (i <= 0 ? ids.length - 1 : i - 1));
        break;
      case 'Home':
      case 'End':
        if (active < 0 || !ids.length) return;
        event.preventDefault();
        setActive(event.key === 'Home' ? 0 : ids.length - 1);
        break;
      case 'Enter': {
        const target = ids[active >= 0 ? active : 0];
        if (!target || (active < 0 && showRecent)) return;
        event.preventDefault();
        open(target);
        break;
      }
      case 'Escape':
        event.preventDefault();
        if (active >= 0) setActive(-1);
        else clear();
        break;
    }
  };

  const clear = () => {
    setText('');
    setCommitted('');
    inputRef.current?.focus();
  };

  const status = showRecent
    ? ''
    : search.isError
      ? t('failed')
      : search.data && !search.isPlaceholderData
        ? results.length
          ? t('count', { count: results.length })
          : t('none', { query })
        : '';

  return (
    <div className="search-page">
      <h1 className="search-page__title">{t('title')}</h1>
      <div className="search-box">
        <label htmlFor={`${id}-input`} className="visually-hidden">
          {t('label')}
        </label>
        <svg className="search-box__icon" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <circle cx="11" cy="11" r="6.5" />
          <path d="m16 16 4.5 4.5" strokeLinecap="round" />
        </svg>
        <input
          ref={inputRef}
          id={`${id}-input`}
          className="search-box__input"
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={ids.length > 0}
          aria-controls={listId}
          aria-activedescendant={active >= 0 ? optionId(active) : undefined}
          aria-describedby={`${id}-hint`}
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="off"
          spellCheck={false}
          enterKeyHint="search"
          maxLength={SEARCH_MAX_CHARS}
          placeholder={t('placeholder')}
          value={text}
          // The page is the search box: it has the focus when opened.
          autoFocus
          onChange={onChange}
          onCompositionStart={() => {
            composing.current = true;
          }}
          onCompositionEnd={(event) => {
            composing.current = false;
            setCommitted(event.currentTarget.value);
          }}
          onKeyDown={onKeyDown}
          data-testid="search-input"
        />
        {text && (
          <button type="button" className="search-box__clear" aria-label={t('clearText')} onClick={clear}>
            <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2.2" aria-hidden="true">
              <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
            </svg>
          </button>
        )}
      </div>
      <p id={`${id}-hint`} className="visually-hidden">
        {t('hint')}
      </p>
      <p className="visually-hidden" role="status" data-testid="search-status">
        {status}
      </p>

      {showRecent && (
        <div className="search-section__head">
          <h2 className="search-section__title">{t('recent.title')}</h2>
          {recent.length > 0 && (
            <button
              type="button"
              className="search-section__action"
              onClick={() => {
                clearRecentStocks();
                toast.show(t('recent.cleared'));
              }}
              data-testid="clear-recent"
            >
              {t('recent.clear')}
            </button>
          )}
        </div>
      )}
      <ul
        id={listId}
        role="listbox"
        aria-label={showRecent ? t('recent.title') : t('results')}
        className={`search-results${search.isPlaceholderData && !showRecent ? ' search-results--stale' : ''}`}
        data-testid="search-results"
      >
        {showRecent
          ? recent.map((rid, i) => (
              <RecentOption key={rid} id={rid} domId={optionId(i)} active={i === active} onSelect={() => open(rid)} onHover={() => setActive(i)} />
            ))
          : results.map((instrument, i) => (
              <ResultOption
                key={instrument.id}
                instrument={instrument}
                domId={optionId(i)}
                active={i === active}
                onSelect={() => open(instrument.id)}
                onHover={() => setActive(i)}
              />
            ))}
      </ul>
      {showRecent && recent.length === 0 && <p className="search-empty">{t('recent.empty')}</p>}
      {!showRecent && status && !results.length && <p className="search-empty">{status}</p>}
    </div>
  );
}

interface OptionProps {
  domId: string;
  active: boolean;
  onSelect: () => void;
  onHover: () => void;
}

function ResultOption({ instrument, domId, active, onSelect, onHover }: OptionProps & { instrument: Instrument }) {
  const locale = useLocale();
  const { primary, secondary } = instrumentNames(instrument, locale);
  return (
    <li
      id={domId}
      role="option"
      aria-selected={active}
      className="search-option"
      // Keep the focus in the box; the click still selects.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onSelect}
      onMouseMove={active ? undefined : onHover}
      data-testid="search-option"
    >
      <span className="search-option__names">
        <span className="search-option__name">{primary}</span>
        {secondary && <span className="search-option__secondary">{secondary}</span>}
      </span>
      <span className="search-option__meta">
        <span className="search-option__ticker">{instrument.ticker}</span>
        <ExchangeBadge instrument={instrument} />
      </span>
    </li>
  );
}

function RecentOption({ id, ...props }: OptionProps & { id: InstrumentId }) {
  const detail = useInstrument(id);
  const fallback: Instrument = {
    id,
    ticker: id.slice(id.indexOf(':') + 1),
    exchange: id.slice(0, id.indexOf(':')) as Instrument['exchange'],
    board: null,
    kind: 'stock',
    currency: '',
    country: '',
    name_ko: '',
    name_en: '',
    sector: '',
    shares_outstanding: null,
    simulated: false,
  };
  const instrument = detail.data ?? { ...fallback, name_ko: fallback.ticker, name_en: fallback.ticker };
  return <ResultOption instrument={instrument} {...props} />;
}
