/** `/operator/errors`: error groups, most recently seen first. */
import { useQuery } from '@tanstack/react-query';
import { formatNumber } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { errorGroupsPageOptions } from '../api/errors';
import type { ErrorGroup } from '../api/types';
import { usePaging } from '../components/paging';
import { Empty, LoadMore, Loading, PageHeader, QueryProblem } from '../components/ui';
import { formatDateTime } from '../lib/format';
import { useObserveT } from '../locales/observe/messages';
import { errorGroupPath } from '../lib/paths';

function GroupRow({ group }: { group: ErrorGroup }) {
  const t = useObserveT();
  const locale = useLocale();
  return (
    <tr className="observe-table__row observe-table__row--link" data-testid="error-group-row">
      <td data-label={t('errors.columns.error')} className="observe-table__main">
        <AppLink to={errorGroupPath(group.id)} className="observe-table__link observe-error-message">
          {group.message}
        </AppLink>
        <span className="observe__muted observe-error-type">{group.error_type}</span>
      </td>
      <td data-label={t('errors.columns.occurrences')} className="observe-num">
        {formatNumber(group.occurrences, locale)}
      </td>
      <td data-label={t('errors.columns.sessions')} className="observe-num">
        {formatNumber(group.affected_sessions, locale)}
      </td>
      <td data-label={t('errors.columns.members')} className="observe-num">
        {formatNumber(group.affected_members, locale)}
      </td>
      <td data-label={t('errors.columns.firstSeen')}>{formatDateTime(group.first_seen, locale)}</td>
      <td data-label={t('errors.columns.lastSeen')}>{formatDateTime(group.last_seen, locale)}</td>
    </tr>
  );
}

function GroupRows({ offset }: { offset: number | undefined }) {
  const page = useQuery(errorGroupsPageOptions(offset));
  return page.data?.groups.map((g) => <GroupRow key={g.id} group={g} />);
}

export function ErrorGroupsPage() {
  const t = useObserveT();
  usePageMeta({ title: t('meta.errors'), description: t('meta.description') });
  const groups = usePaging(errorGroupsPageOptions, (p) => p.next_offset);
  const first = groups.first;
  return (
    <section className="observe-page">
      <PageHeader title={t('errors.title')} lead={t('errors.lead')} />
      {first.isPending ? (
        <Loading />
      ) : first.isError ? (
        <QueryProblem error={first.error} onRetry={() => void first.refetch()} />
      ) : first.data.groups.length === 0 ? (
        <Empty testId="error-groups-empty">{t('errors.empty')}</Empty>
      ) : (
        <>
          <div className="card observe-table-wrap">
            <table className="observe-table" data-testid="error-groups">
              <thead>
                <tr>
                  <th scope="col">{t('errors.columns.error')}</th>
                  <th scope="col" className="observe-num">
                    {t('errors.columns.occurrences')}
                  </th>
                  <th scope="col" className="observe-num">
                    {t('errors.columns.sessions')}
                  </th>
                  <th scope="col" className="observe-num">
                    {t('errors.columns.members')}
                  </th>
                  <th scope="col">{t('errors.columns.firstSeen')}</th>
                  <th scope="col">{t('errors.columns.lastSeen')}</th>
                </tr>
              </thead>
              <tbody>
                {groups.cursors.map((offset) => (
                  <GroupRows key={offset ?? 0} offset={offset} />
                ))}
              </tbody>
            </table>
          </div>
          <LoadMore query={groups} testId="error-groups-more" />
        </>
      )}
    </section>
  );
}
