import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useParams } from 'react-router';
import { ApiError } from '@/shared/api/client';
import { formatDate } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { NotFoundView } from '@/shared/ui/NotFoundView';
import '../components/auth.css';
import { profileQueryOptions } from '../api/profile';

export { messagesReady } from '../locales/messages';

/** `/u/:nickname`: a member's public profile; unknown, deleted or banned members are not found. */
export function ProfilePage() {
  const { t } = useTranslation('auth');
  const { t: tShell } = useTranslation();
  const { nickname = '' } = useParams();
  const locale = useLocale();
  const profile = useQuery(profileQueryOptions(nickname));
  const notFound = profile.error instanceof ApiError && profile.error.status === 404;
  usePageMeta(
    notFound
      ? { title: tShell('meta.notFound.title'), description: tShell('meta.notFound.description') }
      : { title: t('meta.profile.title', { nickname }), description: t('meta.profile.description', { nickname }) },
  );

  if (notFound) return <NotFoundView />;
  return (
    <div className="profile" data-testid="profile-page" aria-busy={profile.isPending}>
      {profile.isError ? (
        <div className="account-section card account-error" role="alert">
          <p>{t('profile.loadError')}</p>
          <button type="button" className="button button--secondary" onClick={() => void profile.refetch()}>
            {t('profile.retry')}
          </button>
        </div>
      ) : (
        <section className="profile-card card" aria-labelledby="profile-name">
          <div className="profile-card__avatar" aria-hidden="true">
            {[...(profile.data?.nickname ?? nickname)][0]?.toUpperCase()}
          </div>
          <h1 id="profile-name" className="profile-card__name" data-testid="profile-nickname">
            {profile.data?.nickname ?? nickname}
          </h1>
          {profile.data && (
            <p className="profile-card__joined">
              <time dateTime={profile.data.joined_at}>
                {t('profile.joined', { date: formatDate(profile.data.joined_at, locale, { dateStyle: 'long' }) })}
              </time>
            </p>
          )}
        </section>
      )}
    </div>
  );
}
