/** `/operator/errors/:groupId`: one error group, its stack trace and latest occurrences. */
import { useQuery } from '@tanstack/react-query';
import { formatNumber } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { errorGroupQueryOptions } from '../api/errors';
import type { ErrorGroup, ErrorOccurrence } from '../api/types';
import { StackTrace } from '../components/StackTrace';
import { Loading, MemberLabel, PageHeader, QueryProblem } from '../components/ui';
import { formatDateTime, shortUrl } from '../lib/format';
import { useObserveT } from '../locales/observe/messages';
import { OBSERVE_ROOT, sessionPath } from '../lib/paths';

function GroupSummary({ group }: { group: ErrorGroup }) {
  const t = useObserveT();
  const locale = useLocale();
  const rows: [string, string][] = [
    [t('error.type'), group.error_type],
    [t('errors.columns.occurrences'), formatNumber(group.occurrences, locale)],
    [t('errors.columns.sessions'), formatNumber(group.affected_sessions, locale)],
    [t('errors.columns.members'), formatNumber(group.affected_members, locale)],
    [t('error.firstSeen'), formatDateTime(group.first_seen, locale)],
    [t('error.lastSeen'), formatDateTime(group.last_seen, locale)],
    [t('error.fingerprint'), group.fingerprint],
  ];
  return (
    <dl className="card observe-meta">
      {rows.map(([label, value]) => (
        <div key={label} className="observe-meta__row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function OccurrenceRow({ occurrence }: { occurrence: ErrorOccurrence }) {
  const t = useObserveT();
  const locale = useLocale();
  return (
    <li className="observe-occurrence" data-testid="error-occurrence">
      <div className="observe-occurrence__head">
        <span>{formatDateTime(occurrence.ts, locale)}</span>
        <MemberLabel member={occurrence.member} />
      </div>
      {occurrence.message && <p className="observe-error-message">{occurrence.message}</p>}
      {occurrence.url && <p className="observe__muted observe-occurrence__url">{shortUrl(occurrence.url)}</p>}
      <AppLink
        to={sessionPath(occurrence.session_secure_id, occurrence.replay_offset_ms)}
        className="button button--secondary observe-occurrence__replay"
        data-testid="occurrence-replay-link"
      >
        {t('common.watchReplay')}
      </AppLink>
    </li>
  );
}

export function ErrorGroupPage({ groupId }: { groupId: string }) {
  const t = useObserveT();
  usePageMeta({ title: t('meta.error'), description: t('meta.description') });
  const id = /^\d{1,15}$/.test(groupId) ? Number(groupId) : NaN;
  const detail = useQuery({ ...errorGroupQueryOptions(id), enabled: Number.isFinite(id) });
  const back = { to: `${OBSERVE_ROOT}/errors`, label: t('error.back') };
  if (!Number.isFinite(id)) {
    return (
      <section className="observe-page">
        <PageHeader title={t('errors.title')} back={back} />
        <p className="card observe__note" role="alert" data-testid="observe-not-found">
          {t('error.notFound')}
        </p>
      </section>
    );
  }
  if (detail.isError) {
    return (
      <section className="observe-page">
        <PageHeader title={t('errors.title')} back={back} />
        <QueryProblem error={detail.error} onRetry={() => void detail.refetch()} notFound={t('error.notFound')} />
      </section>
    );
  }
  if (detail.isPending) {
    return (
      <section className="observe-page">
        <PageHeader title={t('errors.title')} back={back} />
        <Loading />
      </section>
    );
  }
  const { group, occurrences, members } = detail.data;
  return (
    <section className="observe-page observe-error">
      <PageHeader title={<span className="observe-error-message">{group.message}</span>} back={back} />
      <div className="observe-error__layout">
        <div className="observe-error__main">
          <GroupSummary group={group} />
          <section className="card observe-panel">
            <h2 className="observe__subtitle">{t('error.stack')}</h2>
            <StackTrace frames={group.sample_stack} testId="error-stack" />
          </section>
          <section className="card observe-panel">
            <h2 className="observe__subtitle">{t('error.members')}</h2>
            {members.length === 0 ? (
              <p className="observe__muted">{t('error.noMembers')}</p>
            ) : (
              <ul className="observe-chips">
                {members.map((m) => (
                  <li key={m}>
                    <AppLink to={`${OBSERVE_ROOT}/sessions?member=${encodeURIComponent(m)}`} className="observe-chip">
                      #{m}
                    </AppLink>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
        <section className="card observe-panel observe-error__occurrences">
          <h2 className="observe__subtitle">{t('error.occurrences')}</h2>
          <p className="observe__muted">{t('error.occurrencesNote')}</p>
          {occurrences.length === 0 ? (
            <p className="observe__muted">{t('error.noOccurrences')}</p>
          ) : (
            <ol className="observe-occurrences">
              {occurrences.map((o, i) => (
                <OccurrenceRow key={`${o.session_secure_id}-${o.ts}-${i}`} occurrence={o} />
              ))}
            </ol>
          )}
        </section>
      </div>
    </section>
  );
}
