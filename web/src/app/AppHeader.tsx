import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useAuth } from '@/entities/member/model/auth-context';
import { useModalRoute } from '@/shared/hooks/useModalRoute';
import { AppLink } from '@/shared/ui/AppLink';
import { LogoMark } from '@/shared/ui/Logo';
import { GlobeIcon, SearchIcon } from '@/shared/ui/icons';

/**
 * Top bar: the wordmark (home link), stock search, the member's nickname or a log-in link,
 * and the language button.
 */
export function AppHeader() {
  const { t, i18n } = useTranslation();
  const language = useModalRoute('language');
  const { nickname } = useAuth();
  const { pathname, search } = useLocation();
  // Back here after logging in (the log-in page checks `next`).
  const loginTo = `/login?next=${encodeURIComponent(pathname + search)}`;
  return (
    <header className="shell__header">
      <div className="shell__header-inner">
        <AppLink to="/" className="wordmark" aria-label={t('header.homeLink')}>
          <LogoMark size={30} />
          <span className="wordmark__text" aria-hidden="true">
            Moat
          </span>
        </AppLink>
        <div className="shell__header-actions">
          <AppLink to="/search" className="language-button" data-testid="header-search" aria-label={t('header.search')}>
            <SearchIcon size={22} />
          </AppLink>
          {nickname === null ? (
            <AppLink to={loginTo} className="header-login" data-testid="header-login">
              {t('header.login')}
            </AppLink>
          ) : (
            <AppLink
              to="/settings/account"
              className="header-member"
              data-testid="header-member"
              aria-label={t('header.account', { nickname })}
            >
              {nickname}
            </AppLink>
          )}
          <button
            type="button"
            className="language-button"
            data-testid="open-language"
            aria-label={t('header.language')}
            onClick={language.open}
          >
            <GlobeIcon size={20} />
            <span className="language-button__code" aria-hidden="true">
              {i18n.language.toUpperCase()}
            </span>
          </button>
        </div>
      </div>
    </header>
  );
}
