import { useTranslation } from '@/shared/i18n/useTranslation';
import { useAuth } from '@/entities/member/model/auth-context';
import { loginPath } from '@/entities/member/model/next';
import { useFavorites } from '@/entities/instrument/api/favorites';
import { InstrumentRow } from '@/entities/instrument/ui/InstrumentRow';
import { QuoteBadges } from '@/entities/instrument/ui/QuoteBadges';
import { AppLink } from '@/shared/ui/AppLink';
import { SectionCard } from '@/shared/ui/card/SectionCard';
import { LoadError } from '@/entities/instrument/ui/LoadError';

/** Favourites shown on the home page; the rest are on `/favorites`. */
const HOME_FAVORITES_SHOWN = 10;

export { messagesReady } from '../locales/messages';

/** Home's section of the member's favourites with live prices; a log-in card for visitors. */
export function HomeFavorites() {
  const { t } = useTranslation('favorites');
  const { isLoggedIn } = useAuth();
  const favorites = useFavorites();
  const list = favorites.data ?? [];
  return (
    <SectionCard
      title={t('home.title')}
      testId="home-favorites"
      actions={
        <>
          {list.some((i) => i.simulated) && <QuoteBadges quote={{ simulated: true, state: 'live' }} compact />}
          {isLoggedIn && (
            <AppLink to="/favorites" className="section-card__link">
              {t('home.manage')}
            </AppLink>
          )}
        </>
      }
    >
      {!isLoggedIn ? (
        <div className="section-card__prompt" data-testid="favorites-login">
          <p className="section-card__prompt-title">{t('home.loginTitle')}</p>
          <p className="section-card__prompt-body">{t('home.loginBody')}</p>
          <AppLink to={loginPath('/')} className="button button--primary">
            {t('home.login')}
          </AppLink>
        </div>
      ) : favorites.isError ? (
        <LoadError onRetry={() => void favorites.refetch()} />
      ) : !favorites.data ? (
        <div className="section-card__loading" aria-busy="true" />
      ) : list.length === 0 ? (
        <div className="section-card__empty">
          <p>{t('home.empty')}</p>
          <AppLink to="/search" className="button button--secondary">
            {t('home.findStocks')}
          </AppLink>
        </div>
      ) : (
        <>
          <ul className="instrument-list">
            {list.slice(0, HOME_FAVORITES_SHOWN).map((instrument) => (
              <InstrumentRow key={instrument.id} instrument={instrument} fetchQuote />
            ))}
          </ul>
          {list.length > HOME_FAVORITES_SHOWN && (
            <AppLink to="/favorites" className="section-card__more">
              {t('home.more', { count: list.length })}
            </AppLink>
          )}
        </>
      )}
    </SectionCard>
  );
}
