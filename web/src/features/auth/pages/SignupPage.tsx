import { useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useAuth } from '@/entities/member/model/auth-context';
import { safeNext } from '@/entities/member/model/next';
import { writeStorage } from '@/shared/lib/storage';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { useToast } from '@/shared/ui/toast';
import { InputField } from '@/shared/ui/form/Field';
import { useAccountForm } from '../lib/errors';
import { Rule } from '../components/Rule';
import { ProviderButtons } from '../components/ProviderButtons';
import { emailLooksValid, nicknameProblem, passwordProblem } from '../lib/rules';
import '../components/auth.css';
import { ConsentChecks, consentsOf } from '../components/ConsentChecks';
import { legalQueryOptions } from '../api/legal';
import { providersQueryOptions } from '../api/oidc';
import { signup } from '../api/signup';

export { messagesReady } from '../locales/messages';

type SignupField = 'email' | 'password' | 'nickname';

/** `/signup`: email, password and nickname, with the rules shown live; the server decides. */
export function SignupPage() {
  const { t, i18n } = useTranslation('auth');
  usePageMeta({ title: t('meta.signup.title'), description: t('meta.signup.description') });
  const auth = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const next = safeNext(new URLSearchParams(location.search).get('next'));
  const providers = useQuery(providersQueryOptions());
  const legal = useQuery(legalQueryOptions());
  const documents = legal.data ?? [];
  const [accepted, setAccepted] = useState<ReadonlySet<string>>(new Set());

  const [values, setValues] = useState<Record<SignupField, string>>({ email: '', password: '', nickname: '' });
  const form = useAccountForm();
  const done = useRef(false);

  const mutation = useMutation({
    mutationFn: signup,
    onSuccess: ({ token }) => {
      done.current = true;
      if (!auth.login(token)) {
        done.current = false;
        form.show(t('errors.badToken'));
        return;
      }
      writeStorage('MOAT_LOGIN_PLATFORM', 'email');
      toast.show(t('signup.welcome', { nickname: values.nickname.trim() }), { tone: 'success' });
      void navigate(next, { replace: true });
    },
    onError: form.refused,
  });

  if (auth.isLoggedIn && !done.current) return <Navigate to={next} replace />;

  const password = passwordProblem(values.password);
  const nickname = nicknameProblem(values.nickname.trim());
  const email = values.email.trim();
  const clientErrors: Record<SignupField, string | undefined> = {
    email: email === '' ? t('invalid.emailRequired') : emailLooksValid(email) ? undefined : t('invalid.email'),
    password: password === 'short' ? t('invalid.passwordShort') : password === 'long' ? t('invalid.passwordLong') : undefined,
    nickname: nickname === 'length' ? t('invalid.nicknameLength') : nickname === 'chars' ? t('invalid.nicknameChars') : undefined,
  };
  const errorOf = (name: SignupField) => form.errorOf(name, clientErrors[name]);
  const change = (name: SignupField) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [name]: e.target.value }));
    form.clearField(name);
  };

  const consentMissing = documents.some((d) => !accepted.has(d.kind));
  const consentError = form.checked && consentMissing ? t('consent.required') : form.fields.consents;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.check([...Object.values(clientErrors), consentMissing], t('errors.checkFields'))) return;
    mutation.mutate({
      email,
      password: values.password,
      nickname: values.nickname.trim(),
      consents: consentsOf(documents, accepted),
      language: i18n.language === 'en' ? 'en' : 'ko',
    });
  };

  const providerList = providers.data ?? [];

  return (
    <div className="auth-page">
      <div className="auth-card card">
        <h1 className="auth-card__title">{t('signup.title')}</h1>
        <div className="auth-alert" role="alert" data-testid="form-error">
          {form.message}
        </div>
        <form ref={form.formRef} className="auth-form" data-testid="signup-form" noValidate onSubmit={onSubmit}>
          <InputField
            label={t('fields.email')}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            autoCapitalize="none"
            spellCheck={false}
            value={values.email}
            error={errorOf('email')}
            onChange={change('email')}
          />
          <InputField
            label={t('fields.password')}
            type="password"
            name="password"
            autoComplete="new-password"
            value={values.password}
            error={errorOf('password')}
            onChange={change('password')}
            hint={<Rule met={password === undefined}>{t('rules.password')}</Rule>}
          />
          <InputField
            label={t('fields.nickname')}
            type="text"
            name="nickname"
            autoComplete="nickname"
            autoCapitalize="none"
            spellCheck={false}
            value={values.nickname}
            error={errorOf('nickname')}
            onChange={change('nickname')}
            hint={<Rule met={nickname === undefined}>{t('rules.nickname')}</Rule>}
          />
          <ConsentChecks
            documents={documents}
            checked={accepted}
            error={consentError}
            onChange={(kind, on) => {
              setAccepted((prev) => {
                const next = new Set(prev);
                if (on) next.add(kind);
                else next.delete(kind);
                return next;
              });
              form.clearField('consents');
            }}
          />
          <button
            type="submit"
            className="button button--primary auth-form__submit"
            disabled={mutation.isPending || form.waiting}
            data-testid="signup-submit"
          >
            {mutation.isPending ? t('signup.submitting') : t('signup.submit')}
          </button>
        </form>
        {providerList.length > 0 && (
          <>
            <p className="auth-divider">
              <span>{t('login.or')}</span>
            </p>
            <ProviderButtons providers={providerList} next={next} />
          </>
        )}
        <p className="auth-switch">
          {t('signup.haveAccount')}{' '}
          <AppLink to={next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`}>{t('signup.login')}</AppLink>
        </p>
      </div>
    </div>
  );
}
