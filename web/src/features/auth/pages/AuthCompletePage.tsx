import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocation, useNavigate } from 'react-router';
import { useAuth } from '@/entities/member/model/auth-context';
import { safeNext } from '@/entities/member/model/next';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import '../components/auth.css';

export { messagesReady } from '../locales/messages';

/**
 * `/auth/complete#token=…&next=…`: the end of a social log-in. Stores the token and goes
 * to `next`, replacing this history entry so the token does not stay in the address bar
 * or in history.
 */
export function AuthCompletePage() {
  const { t } = useTranslation('auth');
  usePageMeta({ title: t('meta.complete.title'), description: t('meta.complete.description') });
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [failed, setFailed] = useState(false);
  const ran = useRef(false);

  useEffect(() => {
    if (ran.current) return;
    ran.current = true;
    const f = new URLSearchParams(location.hash.slice(1));
    const token = f.get('token');
    if (token && login(token)) {
      void navigate(safeNext(f.get('next')), { replace: true });
    } else {
      setFailed(true);
      void navigate({ pathname: location.pathname }, { replace: true });
    }
  }, [location, login, navigate]);

  return (
    <div className="auth-page">
      <div className="auth-card card" data-testid="auth-complete" aria-busy={!failed}>
        {failed ? (
          <div role="alert" className="auth-notice">
            <p>{t('complete.failed')}</p>
            <AppLink to="/login" className="button button--primary">
              {t('complete.backToLogin')}
            </AppLink>
          </div>
        ) : (
          <p className="auth-card__lead">{t('complete.working')}</p>
        )}
      </div>
    </div>
  );
}
