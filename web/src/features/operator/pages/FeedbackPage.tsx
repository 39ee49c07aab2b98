/** `/operator/feedback`: what users sent from the app, newest first, each linked to its session. */
import { useQuery } from '@tanstack/react-query';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { feedbackPageOptions } from '../api/feedback';
import type { Feedback } from '../api/types';
import { usePaging } from '../components/paging';
import { Empty, LoadMore, Loading, MemberLabel, PageHeader, QueryProblem } from '../components/ui';
import { formatDateTime } from '../lib/format';
import { useObserveT } from '../locales/observe/messages';
import { sessionPath } from '../lib/paths';

function FeedbackRow({ feedback }: { feedback: Feedback }) {
  const t = useObserveT();
  const locale = useLocale();
  const who = [feedback.user_name, feedback.user_email].filter(Boolean).join(' · ');
  return (
    <li className="card observe-feedback" data-testid="feedback-row">
      <div className="observe-feedback__head">
        <MemberLabel member={feedback.member} />
        <span className="observe__muted">{who || t('feedback.anonymous')}</span>
        <time className="observe__muted" dateTime={feedback.created_at}>
          {formatDateTime(feedback.created_at, locale)}
        </time>
      </div>
      <p className="observe-feedback__text">{feedback.verbatim}</p>
      <AppLink to={sessionPath(feedback.session_secure_id)} className="observe-feedback__link" data-testid="feedback-session-link">
        {t('common.openSession')}
      </AppLink>
    </li>
  );
}

function FeedbackRows({ before }: { before: number | undefined }) {
  const page = useQuery(feedbackPageOptions(before));
  return page.data?.feedback.map((f) => <FeedbackRow key={f.id} feedback={f} />);
}

export function FeedbackPage() {
  const t = useObserveT();
  usePageMeta({ title: t('meta.feedback'), description: t('meta.description') });
  const feedback = usePaging(feedbackPageOptions, (p) => p.next_before);
  const first = feedback.first;
  return (
    <section className="observe-page">
      <PageHeader title={t('feedback.title')} lead={t('feedback.lead')} />
      {first.isPending ? (
        <Loading />
      ) : first.isError ? (
        <QueryProblem error={first.error} onRetry={() => void first.refetch()} />
      ) : first.data.feedback.length === 0 ? (
        <Empty testId="feedback-empty">{t('feedback.empty')}</Empty>
      ) : (
        <>
          <ol className="observe-feedback-list" data-testid="feedback-list">
            {feedback.cursors.map((before) => (
              <FeedbackRows key={before ?? 'first'} before={before} />
            ))}
          </ol>
          <LoadMore query={feedback} testId="feedback-more" />
        </>
      )}
    </section>
  );
}
