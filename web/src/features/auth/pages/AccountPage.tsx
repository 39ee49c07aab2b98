import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { memberKeys } from '@/entities/member/api/keys';
import { type Me, meQueryOptions } from '@/entities/member/api/me';
import { useAuth } from '@/entities/member/model/auth-context';
import { RequireAuth, markLoggingOut } from '@/entities/member/ui/RequireAuth';
import { formatDate } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { useToast } from '@/shared/ui/toast';
import { InputField } from '@/shared/ui/form/Field';
import { DeleteAccountDialog } from '../components/DeleteAccountDialog';
import { errorMessage, useAccountForm } from '../lib/errors';
import { Rule } from '../components/Rule';
import { nicknameProblem, passwordProblem } from '../lib/rules';
import '../components/auth.css';
import { changePassword } from '../api/change-password';
import { requestEmailVerification } from '../api/email-verification';
import { exportMe } from '../api/export-me';
import { providersQueryOptions } from '../api/oidc';
import { passwordResetAvailabilityQueryOptions } from '../api/password-reset';
import { updateMe } from '../api/update-me';
import type { OidcProvider } from '../api/oidc';

export { messagesReady } from '../locales/messages';

/** The route: members only; visitors go to `/login?next=/settings/account`. */
export function AccountRoute() {
  return (
    <RequireAuth>
      <AccountPage />
    </RequireAuth>
  );
}

/** `/settings/account` (members only): profile, nickname, password, data export, log-out, deletion. */
export function AccountPage() {
  const { t } = useTranslation('auth');
  usePageMeta({ title: t('meta.account.title'), description: t('meta.account.description') });
  const { userId } = useAuth();
  const me = useQuery(meQueryOptions(userId));
  const providers = useQuery(providersQueryOptions());

  return (
    <div className="account" data-testid="account-page">
      <h1 className="account__title">{t('account.title')}</h1>
      {me.isError ? (
        <section className="account-section card">
          <div className="account-error" role="alert">
            <p>{errorMessage(t, me.error) === t('errors.unknown') ? t('account.loadError') : errorMessage(t, me.error)}</p>
            <button type="button" className="button button--secondary" onClick={() => void me.refetch()}>
              {t('account.retry')}
            </button>
          </div>
        </section>
      ) : !me.data ? (
        <section className="account-section card" aria-busy="true">
          <p className="account-muted">{t('account.loading')}</p>
        </section>
      ) : (
        <>
          <VerifyEmailBanner me={me.data} />
          <ProfileSection me={me.data} providers={providers.data ?? []} />
          <NicknameSection me={me.data} />
          <PasswordSection me={me.data} />
          <DataSection me={me.data} />
          <SessionSection />
          <DangerSection me={me.data} providers={providers.data ?? []} />
        </>
      )}
    </div>
  );
}

function providerName(providers: readonly OidcProvider[], id: string): string {
  return providers.find((p) => p.id === id)?.name ?? id;
}

function ProfileSection({ me, providers }: { me: Me; providers: readonly OidcProvider[] }) {
  const { t } = useTranslation('auth');
  const locale = useLocale();
  return (
    <section className="account-section card" aria-labelledby="account-profile-title">
      <div className="account-profile">
        <h2 id="account-profile-title" className="account-section__title">
          {t('account.profile')}
        </h2>
        <p className="account-profile__name">
          <span data-testid="account-nickname">{me.nickname}</span>
          {me.premium && (
            <span className="badge badge--premium" data-testid="premium-badge">
              {t('account.premium')}
            </span>
          )}
        </p>
      </div>
      <dl className="account-list">
        <div className="account-list__row">
          <dt>{t('account.email')}</dt>
          <dd data-testid="account-email">{me.email ?? t('account.noEmail')}</dd>
        </div>
        <div className="account-list__row">
          <dt>{t('account.role')}</dt>
          <dd>
            <span data-testid="account-role">{t(`account.roles.${me.role}`, { defaultValue: me.role })}</span>
            {me.role === 'operator' && (
              <>
                {' · '}
                {/* A full document load: the console is served with its own policy (inline styles for replays). */}
                <AppLink to="/operator/sessions" reloadDocument data-testid="operator-console-link">
                  {t('account.operatorConsole')}
                </AppLink>
              </>
            )}
          </dd>
        </div>
        <div className="account-list__row">
          <dt>{t('account.providers')}</dt>
          <dd data-testid="account-providers">
            {me.providers.length ? me.providers.map((id) => providerName(providers, id)).join(', ') : t('account.noProviders')}
          </dd>
        </div>
        <div className="account-list__row">
          <dt>{t('account.joined')}</dt>
          <dd>
            <time dateTime={me.created_at}>{formatDate(me.created_at, locale, { dateStyle: 'long' })}</time>
          </dd>
        </div>
      </dl>
      <AppLink to={`/u/${encodeURIComponent(me.nickname)}`} className="account-link">
        {t('account.publicProfile')}
      </AppLink>
    </section>
  );
}

/** Stores the fresh token a change answers with, and reloads the profile. */
function useTokenChange() {
  const { login, userId } = useAuth();
  const queryClient = useQueryClient();
  return (token: string) => {
    login(token);
    void queryClient.invalidateQueries({ queryKey: memberKeys.me(userId) });
  };
}

function NicknameSection({ me }: { me: Me }) {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const applyToken = useTokenChange();
  const [nickname, setNickname] = useState(me.nickname);
  const form = useAccountForm();
  const mutation = useMutation({
    mutationFn: updateMe,
    onSuccess: ({ token }) => {
      applyToken(token);
      form.settle();
      toast.show(t('account.nicknameSaved'), { tone: 'success' });
    },
    onError: form.refused,
  });
  const value = nickname.trim();
  const problem = nicknameProblem(value);
  const clientError =
    problem === 'length' ? t('invalid.nicknameLength') : problem === 'chars' ? t('invalid.nicknameChars') : undefined;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.check([clientError])) return;
    mutation.mutate({ nickname: value });
  };

  return (
    <section className="account-section card" aria-labelledby="account-nickname-title">
      <h2 id="account-nickname-title" className="account-section__title">
        {t('account.nicknameTitle')}
      </h2>
      <form ref={form.formRef} className="auth-form" data-testid="nickname-form" noValidate onSubmit={onSubmit}>
        <div className="auth-alert" role="alert">
          {form.message}
        </div>
        <InputField
          label={t('fields.nickname')}
          type="text"
          name="nickname"
          autoComplete="nickname"
          autoCapitalize="none"
          spellCheck={false}
          value={nickname}
          error={form.errorOf('nickname', clientError)}
          onChange={(e) => {
            setNickname(e.target.value);
            form.clearField('nickname');
          }}
          hint={<Rule met={problem === undefined}>{t('rules.nickname')}</Rule>}
        />
        <button
          type="submit"
          className="button button--primary"
          disabled={mutation.isPending || form.waiting || value === me.nickname}
        >
          {mutation.isPending ? t('account.saving') : t('account.nicknameSave')}
        </button>
      </form>
    </section>
  );
}

function PasswordSection({ me }: { me: Me }) {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const applyToken = useTokenChange();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const form = useAccountForm();
  const mutation = useMutation({
    mutationFn: changePassword,
    onSuccess: ({ token }) => {
      applyToken(token);
      setCurrent('');
      setNext('');
      form.settle();
      toast.show(t('account.passwordSaved'), { tone: 'success' });
    },
    onError: form.refused,
  });
  const problem = passwordProblem(next);
  const errors = {
    current: me.has_password && current === '' ? t('invalid.passwordRequired') : undefined,
    next: problem === 'short' ? t('invalid.passwordShort') : problem === 'long' ? t('invalid.passwordLong') : undefined,
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.check([errors.current, errors.next])) return;
    mutation.mutate(me.has_password ? { current_password: current, new_password: next } : { new_password: next });
  };

  return (
    <section className="account-section card" aria-labelledby="account-password-title">
      <h2 id="account-password-title" className="account-section__title">
        {me.has_password ? t('account.passwordTitle') : t('account.passwordSetTitle')}
      </h2>
      {!me.has_password && <p className="account-muted">{t('account.passwordSetBody')}</p>}
      <form ref={form.formRef} className="auth-form" data-testid="password-form" noValidate onSubmit={onSubmit}>
        <div className="auth-alert" role="alert">
          {form.message}
        </div>
        {/* For password managers: which account this is. */}
        <input type="text" name="username" autoComplete="username" value={me.email ?? me.nickname} readOnly hidden />
        {me.has_password && (
          <InputField
            label={t('fields.currentPassword')}
            type="password"
            name="current_password"
            autoComplete="current-password"
            value={current}
            error={form.errorOf('current_password', errors.current)}
            onChange={(e) => {
              setCurrent(e.target.value);
              form.clearField('current_password');
            }}
          />
        )}
        <InputField
          label={t('fields.newPassword')}
          type="password"
          name="new_password"
          autoComplete="new-password"
          value={next}
          error={form.errorOf('new_password', errors.next)}
          onChange={(e) => {
            setNext(e.target.value);
            form.clearField('new_password');
          }}
          hint={<Rule met={problem === undefined}>{t('rules.password')}</Rule>}
        />
        <button type="submit" className="button button--primary" disabled={mutation.isPending || form.waiting}>
          {mutation.isPending ? t('account.saving') : t('account.passwordSave')}
        </button>
      </form>
    </section>
  );
}

/** Saves `data` as a pretty-printed JSON file. */
function downloadJson(data: unknown, filename: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** An unverified email: says so and sends the link again (when the server sends mail). */
function VerifyEmailBanner({ me }: { me: Me }) {
  const { t, i18n } = useTranslation('auth');
  const toast = useToast();
  const mail = useQuery(passwordResetAvailabilityQueryOptions());
  const mutation = useMutation({
    mutationFn: requestEmailVerification,
    onSuccess: () => toast.show(t('account.verifySent'), { tone: 'success' }),
    onError: (error) => toast.show(errorMessage(t, error), { tone: 'error' }),
  });
  if (!me.email || me.email_verified || !mail.data?.available) return null;
  return (
    <section className="auth-notice" aria-labelledby="account-verify-title" data-testid="verify-banner">
      <h2 id="account-verify-title" className="auth-notice__title">
        {t('account.verifyTitle')}
      </h2>
      <p>{t('account.verifyBody', { email: me.email })}</p>
      <button
        type="button"
        className="button button--secondary"
        disabled={mutation.isPending}
        onClick={() => mutation.mutate({ language: i18n.language === 'en' ? 'en' : 'ko' })}
      >
        {mutation.isPending ? t('account.verifySending') : t('account.verifySend')}
      </button>
    </section>
  );
}

function DataSection({ me }: { me: Me }) {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const mutation = useMutation({
    mutationFn: exportMe,
    onSuccess: (data) => {
      downloadJson(data, `moat-${me.nickname}-${new Date().toISOString().slice(0, 10)}.json`);
      toast.show(t('account.exported'), { tone: 'success' });
    },
    onError: (error) => toast.show(errorMessage(t, error), { tone: 'error' }),
  });
  return (
    <section className="account-section card" aria-labelledby="account-data-title">
      <h2 id="account-data-title" className="account-section__title">
        {t('account.dataTitle')}
      </h2>
      <p className="account-muted">{t('account.dataBody')}</p>
      <button
        type="button"
        className="button button--secondary"
        data-testid="export-data"
        disabled={mutation.isPending}
        onClick={() => mutation.mutate()}
      >
        {mutation.isPending ? t('account.exporting') : t('account.export')}
      </button>
    </section>
  );
}

function SessionSection() {
  const { t } = useTranslation('auth');
  const { logout } = useAuth();
  const toast = useToast();
  const [pending, setPending] = useState(false);
  return (
    <section className="account-section card">
      <button
        type="button"
        className="button button--secondary account-logout"
        data-testid="logout"
        disabled={pending}
        onClick={() => {
          setPending(true);
          // Home, not to the log-in page, once logged out.
          markLoggingOut();
          void logout().then(() => toast.show(t('account.loggedOut'), { tone: 'success' }));
        }}
      >
        {t('account.logout')}
      </button>
    </section>
  );
}

function DangerSection({ me, providers }: { me: Me; providers: readonly OidcProvider[] }) {
  const { t } = useTranslation('auth');
  const [open, setOpen] = useState(false);
  return (
    <section className="account-section account-section--danger card" aria-labelledby="account-danger-title">
      <h2 id="account-danger-title" className="account-section__title">
        {t('account.dangerTitle')}
      </h2>
      <p className="account-muted">{t('account.dangerBody')}</p>
      <button type="button" className="button button--danger" data-testid="delete-account" onClick={() => setOpen(true)}>
        {t('account.delete')}
      </button>
      {open && (
        <DeleteAccountDialog
          me={me}
          providers={providers.filter((p) => me.providers.includes(p.id))}
          onClose={() => setOpen(false)}
        />
      )}
    </section>
  );
}
