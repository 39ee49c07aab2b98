import { useTranslation } from 'react-i18next';
import { useAuth } from '@/entities/member/model/auth-context';
import { loginPath } from '@/entities/member/model/next';
import { useFavorites } from '@/entities/instrument/api/favorites';
import { InstrumentRow } from '@/entities/instrument/ui/InstrumentRow';
import { QuoteBadges } from '@/entities/instrument/ui/QuoteBadges';
import { AppLink } from '@/shared/ui/AppLink';
import { LoadError } from '@/entities/instrument/ui/LoadError';

/** Favourites shown on the home page; the rest are on `/favorites`. */
const HOME_FAVORITES_SHOWN = 10;

/** The member's favourites with live prices; a log-in card for visitors. */
export function FavoritesSection() {
  const { t } = useTranslation('home');
  const { isLoggedIn } = useAuth();
  const favorites = useFavorites();
  const list = favorites.data ?? [];
  return (
    <section className="board-section card" aria-labelledby="favorites-title" data-testid="home-favorites">
      <div className="board-section__head">
        <h2 id="favorites-title" className="board-section__title">
          {t('favorites.title')}
        </h2>
        {list.some((i) => i.simulated) && <QuoteBadges quote={{ simulated: true, state: 'live' }} compact />}
        {isLoggedIn && (
          <AppLink to="/favorites" className="board-section__link">
            {t('favorites.manage')}
          </AppLink>
        )}
      </div>
      {!isLoggedIn ? (
        <div className="board-login" data-testid="favorites-login">
          <p className="board-login__title">{t('favorites.loginTitle')}</p>
          <p className="board-login__body">{t('favorites.loginBody')}</p>
          <AppLink to={loginPath('/')} className="button button--primary">
            {t('favorites.login')}
          </AppLink>
        </div>
      ) : favorites.isError ? (
        <LoadError onRetry={() => void favorites.refetch()} />
      ) : !favorites.data ? (
        <div className="board-loading" aria-busy="true" />
      ) : list.length === 0 ? (
        <div className="board-empty">
          <p>{t('favorites.empty')}</p>
          <AppLink to="/search" className="button button--secondary">
            {t('favorites.findStocks')}
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
            <AppLink to="/favorites" className="board-section__more">
              {t('favorites.more', { count: list.length })}
            </AppLink>
          )}
        </>
      )}
    </section>
  );
}
