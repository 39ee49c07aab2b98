import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { InputField } from '@/shared/ui/form/Field';
import { useAccountForm } from '../lib/errors';
import { emailLooksValid } from '../lib/rules';
import '../components/auth.css';
import { passwordResetAvailabilityQueryOptions, requestPasswordReset } from '../api/password-reset';

export { messagesReady } from '../locales/messages';

/**
 * `/forgot-password` ("비밀번호를 잊으셨나요?"): asks for the email and has the server mail
 * a reset link. The answer is the same whether or not the address is a member's, and so
 * is the page. A server without mail says so: the operator sets a new password.
 */
export function ForgotPasswordPage() {
  const { t, i18n } = useTranslation('auth');
  usePageMeta({ title: t('meta.forgot.title'), description: t('meta.forgot.description') });
  const availability = useQuery(passwordResetAvailabilityQueryOptions());
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useAccountForm();

  const mutation = useMutation({
    mutationFn: requestPasswordReset,
    onSuccess: (_, body) => setSentTo(body.email),
    onError: form.refused,
  });

  const trimmed = email.trim();
  const clientError =
    trimmed === '' ? t('invalid.emailRequired') : emailLooksValid(trimmed) ? undefined : t('invalid.email');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.check([clientError], t('errors.checkFields'))) return;
    mutation.mutate({ email: trimmed, language: i18n.language === 'en' ? 'en' : 'ko' });
  };

  let content;
  if (availability.isPending) {
    content = <p className="auth-card__lead">{t('forgot.loading')}</p>;
  } else if (!availability.data?.available) {
    content = (
      <div className="auth-notice" data-testid="forgot-operator">
        <p>{t('forgot.askOperator')}</p>
      </div>
    );
  } else if (sentTo !== null) {
    content = (
      <div className="auth-notice" role="status" data-testid="forgot-sent">
        <h2 className="auth-notice__title">{t('forgot.sentTitle')}</h2>
        <p>{t('forgot.sentBody', { email: sentTo })}</p>
      </div>
    );
  } else {
    content = (
      <>
        <p className="auth-card__lead">{t('forgot.lead')}</p>
        <div className="auth-alert" role="alert" data-testid="form-error">
          {form.message}
        </div>
        <form ref={form.formRef} className="auth-form" noValidate onSubmit={onSubmit}>
          <InputField
            label={t('fields.email')}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            autoCapitalize="none"
            spellCheck={false}
            value={email}
            error={form.errorOf('email', clientError)}
            onChange={(e) => {
              setEmail(e.target.value);
              form.clearField('email');
            }}
          />
          <button
            type="submit"
            className="button button--primary auth-form__submit"
            disabled={mutation.isPending || form.waiting}
          >
            {mutation.isPending ? t('forgot.sending') : t('forgot.submit')}
          </button>
        </form>
      </>
    );
  }

  return (
    <div className="auth-page">
      <div className="auth-card card">
        <h1 className="auth-card__title">{t('forgot.title')}</h1>
        {content}
        <p className="auth-switch">
          <AppLink to="/login">{t('forgot.backToLogin')}</AppLink>
        </p>
      </div>
    </div>
  );
}
