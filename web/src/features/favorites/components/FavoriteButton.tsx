import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocation } from 'react-router';
import { useAuth } from '@/entities/member/model/auth-context';
import { loginPath } from '@/entities/member/model/next';
import type { Instrument } from '@/entities/instrument/api/types';
import { FAVORITES_MAX, useFavoriteToggle } from '@/entities/instrument/api/favorites';
import { useInstrument } from '@/entities/instrument/api/instrument';
import { AppLink } from '@/shared/ui/AppLink';
import type { StockSlotProps } from '@/shared/area/types';
import { useToast } from '@/shared/ui/toast';
import './favorite-button.css';
import { refusalText } from '@/shared/api/error-text';

function Star({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" focusable="false">
      <path
        d="m12 3.6 2.6 5.3 5.8.8-4.2 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.2-4.1 5.8-.8z"
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export { messagesReady } from '../locales/messages';

/**
 * A stock page's favourite star (slot `stockActions`): a toggle for members, a way to
 * log in (and come back) for visitors.
 */
export function FavoriteButton({ instrumentId }: StockSlotProps) {
  const { t } = useTranslation('favorites');
  const instrument = useInstrument(instrumentId).data;
  const { isLoggedIn } = useAuth();
  const { pathname, search } = useLocation();
  if (!isLoggedIn) {
    return (
      <AppLink to={loginPath(pathname + search)} className="favorite-button" aria-label={t('star.login')} data-testid="favorite-login">
        <Star filled={false} />
      </AppLink>
    );
  }
  return <MemberFavoriteButton instrument={instrument} />;
}

function MemberFavoriteButton({ instrument }: { instrument: Instrument | undefined }) {
  const { t } = useTranslation('favorites');
  const toast = useToast();
  const favorite = useFavoriteToggle(instrument);
  const onClick = () => {
    if (favorite.full) {
      toast.show(t('star.full', { max: FAVORITES_MAX }), { tone: 'error' });
      return;
    }
    const adding = !favorite.isFavorite;
    // The star turns at once (optimistic); the toast waits for the server's answer.
    favorite.toggle({
      onError: (error) => toast.show(refusalText(error) ?? t('star.failed'), { tone: 'error' }),
      onSuccess: () => toast.show(t(adding ? 'star.added' : 'star.removed'), { tone: 'success' }),
    });
  };
  return (
    <button
      type="button"
      className={`favorite-button${favorite.isFavorite ? ' favorite-button--on' : ''}`}
      aria-pressed={favorite.isFavorite}
      aria-label={t('star.add')}
      title={t(favorite.isFavorite ? 'star.remove' : 'star.add')}
      disabled={!favorite.ready}
      onClick={onClick}
      data-testid="favorite-toggle"
    >
      <Star filled={favorite.isFavorite} />
    </button>
  );
}
