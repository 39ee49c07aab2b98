import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocation, useNavigate } from 'react-router';
import { MEMBER_QUERY_ROOT } from '@/entities/member/api/keys';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import '../components/auth.css';
import { confirmEmailVerification } from '../api/email-verification';

export { messagesReady } from '../locales/messages';

/**
 * `/verify-email#token=…`: the link of a verification mail. Sends the token once on
 * arrival (no log-in needed: the mail may be opened on another device) and says how it
 * went.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation('auth');
  usePageMeta({ title: t('meta.verify.title'), description: t('meta.verify.description') });
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [token] = useState(() => new URLSearchParams(location.hash.replace(/^#/, '')).get('token'));
  const mutation = useMutation({
    mutationFn: confirmEmailVerification,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [MEMBER_QUERY_ROOT] }),
  });
  const { mutate } = mutation;
  useEffect(() => {
    if (location.hash) void navigate({ pathname: location.pathname }, { replace: true });
    if (token) mutate({ token });
    // Once, on arrival: the token is single-use.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  let body;
  if (!token || mutation.isError) {
    body = (
      <div className="auth-notice" role="alert">
        <p>{t('verify.failed')}</p>
        <AppLink to="/settings/account">{t('verify.toAccount')}</AppLink>
      </div>
    );
  } else if (mutation.isSuccess) {
    body = (
      <div className="auth-notice" role="status">
        <p>{t('verify.done')}</p>
        <AppLink to="/">{t('verify.toHome')}</AppLink>
      </div>
    );
  } else {
    body = <p className="auth-card__lead">{t('verify.working')}</p>;
  }

  return (
    <div className="auth-page">
      <div className="auth-card card">
        <h1 className="auth-card__title">{t('verify.title')}</h1>
        {body}
      </div>
    </div>
  );
}
