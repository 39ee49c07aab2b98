import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useAuth } from '@/entities/member/model/auth-context';
import { safeNext } from '@/entities/member/model/next';
import { readStorage, writeStorage } from '@/shared/lib/storage';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { useToast } from '@/shared/ui/toast';
import { InputField } from '@/shared/ui/form/Field';
import { useAccountForm } from '../lib/errors';
import { fragmentParams } from '../lib/fragment';
import { ProviderButtons } from '../components/ProviderButtons';
import '../components/auth.css';
import { login } from '../api/login';
import { providersQueryOptions } from '../api/oidc';

export { messagesReady } from '../locales/messages';

/**
 * `/login`: email and password, and the configured OpenID providers (the last platform
 * used first, marked). `?next=` is where to go after; `?reauth=1` asks a member to log in
 * again. The OpenID callback may hand over `#link_ticket=…&email=…&provider=…` (log in to
 * link that identity) or `#error=…`.
 */
export function LoginPage() {
  const { t } = useTranslation('auth');
  usePageMeta({ title: t('meta.login.title'), description: t('meta.login.description') });
  const auth = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const next = safeNext(params.get('next'));
  const reauth = params.get('reauth') === '1';

  // The fragment is read once, then dropped from the address bar (its ticket is single-use).
  const [handover] = useState(() => {
    const f = fragmentParams(location.hash);
    return { linkTicket: f.get('link_ticket'), email: f.get('email') ?? '', provider: f.get('provider'), error: f.get('error') };
  });
  useEffect(() => {
    if (location.hash) void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
    // Once, on arrival: the fragment was read into state above and leaves the address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const [last] = useState(() => readStorage('MOAT_LOGIN_PLATFORM'));
  const providers = useQuery(providersQueryOptions());
  const linking = handover.linkTicket !== null;
  const providerName =
    providers.data?.find((p) => p.id === handover.provider)?.name ?? handover.provider ?? '';

  const [email, setEmail] = useState(handover.email);
  const [password, setPassword] = useState('');
  const form = useAccountForm(handover.error);
  const done = useRef(false);

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: ({ token }) => {
      done.current = true;
      if (!auth.login(token)) {
        done.current = false;
        form.show(t('errors.badToken'));
        return;
      }
      writeStorage('MOAT_LOGIN_PLATFORM', 'email');
      if (linking) toast.show(t('login.linked', { provider: providerName }), { tone: 'success' });
      void navigate(next, { replace: true });
    },
    onError: form.refused,
  });

  if (auth.isLoggedIn && !reauth && !done.current) return <Navigate to={next} replace />;

  const clientErrors = {
    email: email.trim() === '' ? t('invalid.emailRequired') : undefined,
    password: password === '' ? t('invalid.passwordRequired') : undefined,
  };
  const errorOf = (name: 'email' | 'password') => form.errorOf(name, clientErrors[name]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.check([clientErrors.email, clientErrors.password], t('errors.checkFields'))) return;
    mutation.mutate({ email: email.trim(), password, ...(handover.linkTicket ? { link_ticket: handover.linkTicket } : {}) });
  };

  const providerList = providers.data ?? [];
  const showSocial = !linking && providerList.length > 0;
  const socialFirst = showSocial && last !== undefined && last !== 'email' && providerList.some((p) => p.id === last);

  const emailSection = (
    <section className="auth-section" aria-labelledby="login-email-title" key="email">
      <h2 id="login-email-title" className="auth-section__title">
        {t('login.email')}
        {last === 'email' && !linking && <span className="badge badge--last">{t('login.lastUsed')}</span>}
      </h2>
      <form ref={form.formRef} className="auth-form" data-testid="login-form" noValidate onSubmit={onSubmit}>
        <InputField
          label={t('fields.email')}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          error={errorOf('email')}
          onChange={(e) => {
            setEmail(e.target.value);
            form.clearField('email');
          }}
        />
        <InputField
          label={t('fields.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          error={errorOf('password')}
          onChange={(e) => {
            setPassword(e.target.value);
            form.clearField('password');
          }}
        />
        <button
          type="submit"
          className="button button--primary auth-form__submit"
          disabled={mutation.isPending || form.waiting}
          data-testid="login-submit"
        >
          {mutation.isPending ? t('login.submitting') : t('login.submit')}
        </button>
        <AppLink to="/forgot-password" className="auth-form__forgot">
          {t('login.forgot')}
        </AppLink>
      </form>
    </section>
  );

  const socialSection = showSocial && (
    <section className="auth-section" aria-labelledby="login-social-title" key="social">
      <h2 id="login-social-title" className="auth-section__title">
        {t('login.social')}
      </h2>
      <ProviderButtons providers={providerList} next={next} last={last} />
    </section>
  );

  const divider = showSocial && (
    <p className="auth-divider" key="or">
      <span>{t('login.or')}</span>
    </p>
  );

  return (
    <div className="auth-page">
      <div className="auth-card card">
        <h1 className="auth-card__title">{t('login.title')}</h1>
        {reauth && <p className="auth-notice">{t('login.reauth')}</p>}
        {linking && (
          <div className="auth-notice" data-testid="link-notice">
            <h2 className="auth-notice__title">{t('login.linkTitle', { provider: providerName })}</h2>
            <p>{t('login.linkBody', { provider: providerName, email: handover.email })}</p>
          </div>
        )}
        <div className="auth-alert" role="alert" data-testid="form-error">
          {/* An expired or used link ticket has no field of its own to show next to. */}
          {form.fields.link_ticket ?? form.message}
        </div>
        {socialFirst ? [socialSection, divider, emailSection] : [emailSection, divider, socialSection]}
        <p className="auth-switch">
          {t('login.noAccount')}{' '}
          <AppLink to={next === '/' ? '/signup' : `/signup?next=${encodeURIComponent(next)}`}>{t('login.signup')}</AppLink>
        </p>
      </div>
    </div>
  );
}
