import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocation } from 'react-router';
import { useAuth } from '@/entities/member/model/auth-context';
import { AppLink } from '@/shared/ui/AppLink';
import '@/shared/ui/header';

/** The header's member item (slot `header`): the nickname, to the account page; a log-in link for a visitor. */
export function HeaderAccount() {
  const { t } = useTranslation();
  const { nickname } = useAuth();
  const { pathname, search } = useLocation();
  if (nickname === null) {
    // Back here after logging in (the log-in page checks `next`).
    return (
      <AppLink to={`/login?next=${encodeURIComponent(pathname + search)}`} className="header-link" data-testid="header-login">
        {t('header.login')}
      </AppLink>
    );
  }
  return (
    <AppLink
      to="/settings/account"
      className="header-link header-link--quiet"
      data-testid="header-member"
      aria-label={t('header.account', { nickname })}
    >
      {nickname}
    </AppLink>
  );
}
