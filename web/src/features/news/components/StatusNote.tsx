/**
 * Why a list has no news, or may be behind: no feed set up (operators get the way to set
 * one up), feeds unreachable (with the last time anything arrived), or simply no
 * articles yet. Never a blank list.
 */
import { useQuery } from '@tanstack/react-query';
import { meQueryOptions } from '@/entities/member/api/me';
import { useAuth } from '@/entities/member/model/auth-context';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocale } from '@/shared/i18n/useLocale';
import { AppLink } from '@/shared/ui/AppLink';
import type { NewsStatus } from '../api/types';
import { formatDateTime } from '../lib/time';

/** Where operators set up the feeds. */
export const FEEDS_PATH = '/operator/news';

/** Whether the member is an operator (`GET /api/me`, already cached by the shell). */
export function useIsOperator(): boolean {
  const { userId } = useAuth();
  return useQuery(meQueryOptions(userId)).data?.role === 'operator';
}

export interface StatusNoteProps {
  status: NewsStatus;
  /** Whether the list shows articles (then only a problem is worth a line). */
  hasItems: boolean;
}

/** The note for `status`, or nothing when the list speaks for itself. */
export function StatusNote({ status, hasItems }: StatusNoteProps) {
  const { t } = useTranslation('news');
  const locale = useLocale();
  const operator = useIsOperator();
  if (status.state === 'not_configured') {
    if (hasItems && !operator) return null;
    return (
      <div className="news-note" role="status">
        <p className="news-note__title">{t('status.notConfigured')}</p>
        {operator && (
          <AppLink to={FEEDS_PATH} className="button button--secondary">
            {t('status.setUp')}
          </AppLink>
        )}
      </div>
    );
  }
  if (status.state === 'unreachable') {
    const time = status.last_success_at ? formatDateTime(status.last_success_at, locale) : t('status.never');
    return (
      <div className="news-note news-note--warning" role="status">
        <p className="news-note__title">{t('status.unreachable')}</p>
        <p className="news-note__detail">{t('status.lastSuccess', { time })}</p>
      </div>
    );
  }
  if (hasItems) return null;
  return (
    <div className="news-note" role="status">
      <p className="news-note__title">{t('status.empty')}</p>
    </div>
  );
}
