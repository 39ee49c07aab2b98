/** Small pieces every console page uses: problems, empty states, paging, page headers, members. */
import type { ReactNode } from 'react';
import { ApiError } from '@/shared/api/client';
import { AppLink } from '@/shared/ui/AppLink';
import { useObserveT } from '../locales/observe/messages';

/** "Only operators can see this page." */
export function Forbidden() {
  const t = useObserveT();
  return (
    <p className="card observe__note" role="alert" data-testid="observe-forbidden">
      {t('common.forbidden')}
    </p>
  );
}

/** A failed query: "operators only" on 403, `notFound` on 404, else a retry. */
export function QueryProblem({ error, onRetry, notFound }: { error: unknown; onRetry: () => void; notFound?: string }) {
  const t = useObserveT();
  if (error instanceof ApiError && error.status === 403) return <Forbidden />;
  if (notFound && error instanceof ApiError && error.status === 404) {
    return (
      <p className="card observe__note" role="alert" data-testid="observe-not-found">
        {notFound}
      </p>
    );
  }
  return (
    <div className="card observe__note" role="alert" data-testid="observe-load-error">
      <p>{t('common.loadError')}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** Nothing to show. */
export function Empty({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p className="card observe__note observe__empty" data-testid={testId}>
      {children}
    </p>
  );
}

/** Placeholder rows while a list loads. */
export function Loading() {
  const t = useObserveT();
  return (
    <div className="observe__loading" aria-busy="true">
      <span className="visually-hidden">{t('common.loading')}</span>
      <span className="observe__skeleton" />
      <span className="observe__skeleton" />
      <span className="observe__skeleton observe__skeleton--short" />
    </div>
  );
}

export interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError?: boolean;
  fetchNextPage: () => unknown;
}

/** "Load more" under a cursor-paged list, while there is a next page. */
export function LoadMore({ query, testId }: { query: PagedQuery; testId?: string }) {
  const t = useObserveT();
  if (!query.hasNextPage) return null;
  return (
    <div className="observe__more">
      {query.isFetchNextPageError && (
        <p role="alert" className="observe__muted">
          {t('common.loadError')}
        </p>
      )}
      <button
        type="button"
        className="button button--secondary"
        disabled={query.isFetchingNextPage}
        aria-busy={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
        data-testid={testId}
      >
        {query.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
      </button>
    </div>
  );
}

/** A page's title, lead and, on detail pages, the way back to its list. */
export function PageHeader({ title, lead, back }: { title: ReactNode; lead?: ReactNode; back?: { to: string; label: string } }) {
  return (
    <header className="observe__header">
      {back && (
        <AppLink to={back.to} className="observe__back">
          <span aria-hidden="true">←</span> {back.label}
        </AppLink>
      )}
      <h1 className="observe__title">{title}</h1>
      {lead && <p className="observe__lead">{lead}</p>}
    </header>
  );
}

/** Who a session belongs to: nickname and member number, or "visitor". */
export function MemberLabel({ member, nickname }: { member?: string | null; nickname?: string | undefined }) {
  const t = useObserveT();
  if (!member) return <span className="observe__muted">{t('common.visitor')}</span>;
  return (
    <span className="observe-member">
      {nickname && <span className="observe-member-name">{nickname}</span>}
      <span className="observe-member-id">#{member}</span>
    </span>
  );
}
