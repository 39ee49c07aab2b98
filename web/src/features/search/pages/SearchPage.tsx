import { useEffect } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useNavigate, useSearchParams } from 'react-router';
import { SEARCH_MAX_CHARS } from '@/entities/instrument/api/search';
import { stockPath } from '@/entities/instrument/model/ids';
import { clearRecentStocks, useRecentStocks } from '@/entities/instrument/model/recent';
import { useInstrumentCombobox } from '@/entities/instrument/model/useInstrumentCombobox';
import { InstrumentIdOption, InstrumentOption } from '@/entities/instrument/ui/InstrumentOption';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { useToast } from '@/shared/ui/toast';
import '../components/search.css';

export { messagesReady } from '../locales/messages';

/** Typing must pause this long before a search is sent. */
export const SEARCH_DEBOUNCE_MS = 150;

/**
 * `/search`: the instrument combobox with instant results as one types (`?q=` keeps the
 * query for the way back), the recently viewed stocks while the box is empty. Arrow keys
 * move through the list, Enter opens, Escape steps back. Text still being composed by an
 * input method (Korean syllables) is not searched until the composition ends.
 */
export function SearchPage() {
  const { t } = useTranslation('search');
  usePageMeta({ title: t('meta.title'), description: t('meta.description') });
  const navigate = useNavigate();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const recent = useRecentStocks();
  const { text, combobox, query, search, idle: showRecent, results, ids } = useInstrumentCombobox({
    debounceMs: SEARCH_DEBOUNCE_MS,
    initialText: params.get('q') ?? '',
    idleIds: recent,
    onChoose: (id) => void navigate(stockPath(id)),
  });

  // The query goes into the address (replacing the entry), so "back" returns to it.
  const queryInAddress = params.get('q') ?? '';
  useEffect(() => {
    if (queryInAddress === query) return;
    setParams(query ? { q: query } : {}, { replace: true, preventScrollReset: true });
  }, [query, queryInAddress, setParams]);

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
        <label htmlFor={combobox.inputId} className="visually-hidden">
          {t('label')}
        </label>
        <svg className="search-box__icon" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <circle cx="11" cy="11" r="6.5" />
          <path d="m16 16 4.5 4.5" strokeLinecap="round" />
        </svg>
        <input
          {...combobox.inputProps}
          className="search-box__input"
          aria-describedby={`${combobox.inputId}-hint`}
          enterKeyHint="search"
          maxLength={SEARCH_MAX_CHARS}
          placeholder={t('placeholder')}
          // The page is the search box: it has the focus when opened.
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the page exists to type in this box
          autoFocus
          data-testid="search-input"
        />
        {text.text && (
          <button type="button" className="search-box__clear" aria-label={t('clearText')} onClick={text.clear}>
            <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2.2" aria-hidden="true">
              <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
            </svg>
          </button>
        )}
      </div>
      <p id={`${combobox.inputId}-hint`} className="visually-hidden">
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
        {...combobox.listboxProps}
        aria-label={showRecent ? t('recent.title') : t('results')}
        className={`search-results${search.isPlaceholderData && !showRecent ? ' search-results--stale' : ''}`}
        data-testid="search-results"
      >
        {showRecent
          ? ids.map((id, i) => <InstrumentIdOption key={id} id={id} optionProps={combobox.optionProps(i)} withSecondary testId="search-option" />)
          : results.map((instrument, i) => (
              <InstrumentOption
                key={instrument.id}
                instrument={instrument}
                optionProps={combobox.optionProps(i)}
                withSecondary
                testId="search-option"
              />
            ))}
      </ul>
      {showRecent && recent.length === 0 && <p className="search-empty">{t('recent.empty')}</p>}
      {!showRecent && status && !results.length && <p className="search-empty">{status}</p>}
    </div>
  );
}
