import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocation, useNavigate } from 'react-router';
import { useAuth } from '@/entities/member/model/auth-context';
import { writeStorage } from '@/shared/lib/storage';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { useToast } from '@/shared/ui/toast';
import { InputField } from '@/shared/ui/form/Field';
import { useAccountForm } from '../lib/errors';
import { fragmentParams } from '../lib/fragment';
import { passwordProblem } from '../lib/rules';
import { Rule } from '../components/Rule';
import '../components/auth.css';
import { confirmPasswordReset } from '../api/password-reset';

export { messagesReady } from '../locales/messages';

/**
 * `/reset-password#token=…`: the link of a reset mail. The member chooses a new password;
 * the server ends every session and answers a new token, so the member is logged in. The
 * token is read once from the fragment and leaves the address bar.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  usePageMeta({ title: t('meta.reset.title'), description: t('meta.reset.description') });
  const auth = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const [token] = useState(() => fragmentParams(location.hash).get('token'));
  useEffect(() => {
    if (location.hash) void navigate({ pathname: location.pathname }, { replace: true });
    // Once, on arrival: the token was read into state above.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const [password, setPassword] = useState('');
  const form = useAccountForm();
  const done = useRef(false);

  const mutation = useMutation({
    mutationFn: confirmPasswordReset,
    onSuccess: ({ token: session }) => {
      done.current = true;
      if (!auth.login(session)) {
        form.show(t('errors.badToken'));
        return;
      }
      writeStorage('MOAT_LOGIN_PLATFORM', 'email');
      toast.show(t('reset.done'), { tone: 'success' });
      void navigate('/', { replace: true });
    },
    onError: form.refused,
  });

  const problem = passwordProblem(password);
  const clientError =
    password === '' ? t('invalid.passwordRequired') : problem === 'short' ? t('invalid.passwordShort') : problem === 'long' ? t('invalid.passwordLong') : undefined;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!token || !form.check([clientError], t('errors.checkFields'))) return;
    mutation.mutate({ token, new_password: password });
  };

  // An expired or used link has no field on the page: say so, and offer a new one.
  const linkError = form.fields.token;

  return (
    <div className="auth-page">
      <div className="auth-card card">
        <h1 className="auth-card__title">{t('reset.title')}</h1>
        {!token || linkError ? (
          <div className="auth-notice" role="alert" data-testid="reset-expired">
            <p>{t('reset.expired')}</p>
            <AppLink to="/forgot-password">{t('reset.askAgain')}</AppLink>
          </div>
        ) : (
          <>
            <div className="auth-alert" role="alert" data-testid="form-error">
              {form.message}
            </div>
            <form ref={form.formRef} className="auth-form" noValidate onSubmit={onSubmit}>
              <InputField
                label={t('fields.newPassword')}
                type="password"
                name="new_password"
                autoComplete="new-password"
                value={password}
                error={form.errorOf('new_password', clientError)}
                onChange={(e) => {
                  setPassword(e.target.value);
                  form.clearField('new_password');
                }}
              />
              <Rule met={password !== '' && problem === undefined}>{t('rules.password')}</Rule>
              <button
                type="submit"
                className="button button--primary auth-form__submit"
                disabled={mutation.isPending || form.waiting}
              >
                {mutation.isPending ? t('account.saving') : t('reset.submit')}
              </button>
            </form>
          </>
        )}
      </div>
    </div>
  );
}
