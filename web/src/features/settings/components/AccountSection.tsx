import { useState } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useAuth } from '@/entities/member/model/auth-context';
import { markLoggingOut } from '@/entities/member/ui/RequireAuth';
import { useModalRoute } from '@/shared/hooks/useModalRoute';
import { AppLink } from '@/shared/ui/AppLink';
import { useToast } from '@/shared/ui/toast';

/**
 * The account: a member logs out or deletes the account (the deletion dialog asks for the
 * password, `?deleteAccount=routeModalTrue`); a visitor gets the log-in link.
 */
export function AccountSection() {
  const { t } = useTranslation('settings');
  const { isLoggedIn, nickname, logout } = useAuth();
  const toast = useToast();
  const deletion = useModalRoute('deleteAccount');
  const [pending, setPending] = useState(false);
  return (
    <section className="settings-section card" aria-labelledby="settings-account-title">
      <h2 id="settings-account-title" className="settings-section__title">
        {t('account.title')}
      </h2>
      {isLoggedIn ? (
        <>
          <div className="settings-row">
            <div className="settings-row__text">
              <span className="settings-row__value">{nickname}</span>
              <AppLink to="/settings/account" className="settings-row__hint">
                {t('account.manage')}
              </AppLink>
            </div>
            <button
              type="button"
              className="button button--secondary"
              disabled={pending}
              onClick={() => {
                setPending(true);
                markLoggingOut();
                void logout().then(() => toast.show(t('account.loggedOut'), { tone: 'success' }));
              }}
            >
              {t('account.logout')}
            </button>
          </div>
          <div className="settings-row">
            <span className="settings-row__hint">{t('account.deleteHint')}</span>
            <button type="button" className="button button--secondary settings-danger" onClick={deletion.open}>
              {t('account.delete')}
            </button>
          </div>
        </>
      ) : (
        <div className="settings-row">
          <span className="settings-row__hint">{t('account.visitor')}</span>
          <AppLink to="/login?next=%2Fsettings" className="button button--primary">
            {t('account.login')}
          </AppLink>
        </div>
      )}
    </section>
  );
}
