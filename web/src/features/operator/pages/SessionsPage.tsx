/** `/operator/sessions`: recorded sessions, newest first, filtered through the URL. */
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useLocale } from '@/shared/i18n/useLocale';
import { formatNumber } from '@/shared/i18n/format';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import {
  ENVIRONMENTS,
  NO_FILTERS,
  filtersFromSearch,
  filtersToSearch,
  sessionsPageOptions,
  type SessionFilters,
} from '../api/sessions';
import type { ObsSession } from '../api/types';
import { usePaging } from '../components/paging';
import { Empty, LoadMore, Loading, MemberLabel, PageHeader, QueryProblem } from '../components/ui';
import { formatClock, formatDateTime, millisBetween, nicknameOf, shortUrl } from '../lib/format';
import { useObserveT } from '../locales/observe/messages';
import { sessionPath } from '../lib/paths';
import { SegmentedControl } from '@/shared/ui/segmented/SegmentedControl';

/** The filter form. Text and dates apply on submit; the switches apply at once. */
function FiltersForm({ value, onApply }: { value: SessionFilters; onApply: (filters: SessionFilters) => void }) {
  const t = useObserveT();
  const [draft, setDraft] = useState(value);
  const id = useId();
  const envLabel = `${id}-env`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const applyNow = (change: Partial<SessionFilters>) => {
    const next = { ...draft, ...change };
    setDraft(next);
    onApply(next);
  };
  return (
    <form className="card observe-filters" onSubmit={submit} data-testid="observe-session-filters" role="search">
      <fieldset className="observe-filters__fields">
        <legend className="visually-hidden">{t('sessions.filters.legend')}</legend>
        <label className="observe-field observe-field--member">
          <span className="observe-field__label">{t('sessions.filters.member')}</span>
          <input
            className="observe-input"
            type="search"
            name="member"
            autoComplete="off"
            spellCheck={false}
            placeholder={t('sessions.filters.memberHint')}
            value={draft.member}
            onChange={(e) => setDraft({ ...draft, member: e.target.value })}
            data-testid="filter-member"
          />
        </label>
        <label className="observe-field">
          <span className="observe-field__label">{t('sessions.filters.from')}</span>
          <input
            className="observe-input"
            type="date"
            name="from"
            value={draft.from}
            max={draft.to || undefined}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
            data-testid="filter-from"
          />
        </label>
        <label className="observe-field">
          <span className="observe-field__label">{t('sessions.filters.to')}</span>
          <input
            className="observe-input"
            type="date"
            name="to"
            value={draft.to}
            min={draft.from || undefined}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
            data-testid="filter-to"
          />
        </label>
        <div className="observe-field observe-field--env">
          <span id={envLabel} className="observe-field__label">
            {t('sessions.filters.environment')}
          </span>
          <SegmentedControl
            labelledBy={envLabel}
            testId="filter-environment"
            segments={(['', ...ENVIRONMENTS] as const).map((env) => ({
              value: env,
              label: t(`sessions.filters.${env || 'all'}`),
              testId: `filter-env-${env || 'all'}`,
            }))}
            value={draft.environment}
            onChange={(env) => applyNow({ environment: env })}
          />
        </div>
        <div className="observe-filters__checks">
          <label className="observe-check">
            <input
              type="checkbox"
              checked={draft.hasErrors}
              onChange={(e) => applyNow({ hasErrors: e.target.checked })}
              data-testid="filter-errors"
            />
            {t('sessions.filters.hasErrors')}
          </label>
          <label className="observe-check">
            <input
              type="checkbox"
              checked={draft.hasFeedback}
              onChange={(e) => applyNow({ hasFeedback: e.target.checked })}
              data-testid="filter-feedback"
            />
            {t('sessions.filters.hasFeedback')}
          </label>
        </div>
      </fieldset>
      <div className="observe-filters__actions">
        <button type="submit" className="button button--primary" data-testid="filter-apply">
          {t('sessions.filters.apply')}
        </button>
        <button type="button" className="button button--secondary" onClick={() => applyNow(NO_FILTERS)} data-testid="filter-reset">
          {t('sessions.filters.reset')}
        </button>
      </div>
    </form>
  );
}

function SessionRow({ session }: { session: ObsSession }) {
  const t = useObserveT();
  const locale = useLocale();
  const none = t('common.none');
  return (
    <tr className="observe-table__row observe-table__row--link" data-testid="observe-session-row">
      <td data-label={t('sessions.columns.member')}>
        <AppLink to={sessionPath(session.secure_id)} className="observe-table__link">
          <MemberLabel member={session.member} nickname={nicknameOf(session.user_object)} />
        </AppLink>
      </td>
      <td data-label={t('sessions.columns.started')}>{formatDateTime(session.started_at, locale)}</td>
      <td data-label={t('sessions.columns.duration')} className="observe-num">
        {formatClock(millisBetween(session.started_at, session.last_push_at))}
      </td>
      <td data-label={t('sessions.columns.errors')} className="observe-num">
        {session.error_count > 0 ? (
          <span className="observe-badge observe-badge--error">{formatNumber(session.error_count, locale)}</span>
        ) : (
          formatNumber(0, locale)
        )}
      </td>
      <td data-label={t('sessions.columns.feedback')}>
        {session.has_feedback ? <span className="observe-badge observe-badge--info">{t('sessions.feedbackBadge')}</span> : none}
      </td>
      <td data-label={t('sessions.columns.environment')}>{session.environment || none}</td>
      <td data-label={t('sessions.columns.firstPage')} className="observe-table__url">
        {session.first_url ? shortUrl(session.first_url) : none}
      </td>
    </tr>
  );
}

/** The rows of one page (rendered once it has loaded). */
function SessionRows({ filters, before }: { filters: SessionFilters; before: number | undefined }) {
  const page = useQuery(sessionsPageOptions(filters, before));
  return page.data?.sessions.map((s) => <SessionRow key={s.secure_id} session={s} />);
}

export function SessionsPage() {
  const t = useObserveT();
  usePageMeta({ title: t('meta.sessions'), description: t('meta.description') });
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(params), [params]);
  const filterKey = filtersToSearch(filters).toString();
  const sessions = usePaging((before: number | undefined) => sessionsPageOptions(filters, before), (p) => p.next_before, filterKey);
  const first = sessions.first;
  return (
    <section className="observe-page" aria-labelledby="observe-sessions-title">
      <PageHeader title={<span id="observe-sessions-title">{t('sessions.title')}</span>} lead={t('sessions.lead')} />
      <FiltersForm
        key={filterKey}
        value={filters}
        onApply={(next) => setParams(filtersToSearch(next), { replace: true })}
      />
      {first.isPending ? (
        <Loading />
      ) : first.isError ? (
        <QueryProblem error={first.error} onRetry={() => void first.refetch()} />
      ) : first.data.sessions.length === 0 ? (
        <Empty testId="observe-sessions-empty">{t('sessions.empty')}</Empty>
      ) : (
        <>
          <div className="card observe-table-wrap">
            <table className="observe-table" data-testid="observe-sessions">
              <thead>
                <tr>
                  <th scope="col">{t('sessions.columns.member')}</th>
                  <th scope="col">{t('sessions.columns.started')}</th>
                  <th scope="col" className="observe-num">
                    {t('sessions.columns.duration')}
                  </th>
                  <th scope="col" className="observe-num">
                    {t('sessions.columns.errors')}
                  </th>
                  <th scope="col">{t('sessions.columns.feedback')}</th>
                  <th scope="col">{t('sessions.columns.environment')}</th>
                  <th scope="col">{t('sessions.columns.firstPage')}</th>
                </tr>
              </thead>
              <tbody>
                {sessions.cursors.map((before) => (
                  <SessionRows key={before ?? 'first'} filters={filters} before={before} />
                ))}
              </tbody>
            </table>
          </div>
          <LoadMore query={sessions} testId="observe-sessions-more" />
        </>
      )}
    </section>
  );
}
