import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocation, useNavigate } from 'react-router';
import { useAuth } from '@/entities/member/model/auth-context';
import { safeNext } from '@/entities/member/model/next';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { useToast } from '@/shared/ui/toast';
import { InputField } from '@/shared/ui/form/Field';
import { useAccountForm } from '../lib/errors';
import { Rule } from '../components/Rule';
import { fragmentParams } from '../lib/fragment';
import { nicknameProblem } from '../lib/rules';
import '../components/auth.css';
import { ConsentChecks, consentsOf } from '../components/ConsentChecks';
import { legalQueryOptions } from '../api/legal';
import { oidcSignup } from '../api/oidc';

export { messagesReady } from '../locales/messages';

/**
 * `/signup/social#ticket=…&next=…&email=…&nickname=…`: a new social identity; the member chooses a
 * nickname (the provider's offered first) and the sign-up finishes with `POST /api/auth/oidc/signup`.
 */
export function SocialSignupPage() {
  const { t } = useTranslation('auth');
  usePageMeta({ title: t('meta.socialSignup.title'), description: t('meta.socialSignup.description') });
  const auth = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const [handover] = useState(() => {
    const f = fragmentParams(location.hash);
    return {
      ticket: f.get('ticket'),
      next: safeNext(f.get('next')),
      email: f.get('email'),
      nickname: f.get('nickname') ?? '',
    };
  });
  useEffect(() => {
    if (location.hash) void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
    // Once, on arrival: the fragment was read into state above and leaves the address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The provider's nickname (Naver's, Kakao's…), when the server found it acceptable: a suggestion to keep or change.
  const [nickname, setNickname] = useState(handover.nickname);
  const form = useAccountForm();
  const legal = useQuery(legalQueryOptions());
  const documents = legal.data ?? [];
  const [accepted, setAccepted] = useState<ReadonlySet<string>>(new Set());
  const consentMissing = documents.some((d) => !accepted.has(d.kind));

  const mutation = useMutation({
    mutationFn: oidcSignup,
    onSuccess: ({ token }) => {
      if (!auth.login(token)) {
        form.show(t('errors.badToken'));
        return;
      }
      toast.show(t('signup.welcome', { nickname: nickname.trim() }), { tone: 'success' });
      void navigate(handover.next, { replace: true });
    },
    onError: form.refused,
  });

  const problem = nicknameProblem(nickname.trim());
  const clientError =
    problem === 'length' ? t('invalid.nicknameLength') : problem === 'chars' ? t('invalid.nicknameChars') : undefined;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.check([clientError, !handover.ticket, consentMissing], t('errors.checkFields')) || !handover.ticket) return;
    mutation.mutate({ ticket: handover.ticket, nickname: nickname.trim(), consents: consentsOf(documents, accepted) });
  };

  // A ticket problem (expired, used) is not the nickname's: start over.
  const ticketProblem = form.fields.ticket !== undefined;

  return (
    <div className="auth-page">
      <div className="auth-card card">
        <h1 className="auth-card__title">{t('signup.socialTitle')}</h1>
        {!handover.ticket ? (
          <div className="auth-notice" role="alert" data-testid="social-signup-missing">
            <p>{t('signup.socialMissing')}</p>
            <AppLink to="/login" className="button button--secondary">
              {t('signup.backToLogin')}
            </AppLink>
          </div>
        ) : (
          <>
            <p className="auth-card__lead">{t('signup.socialBody')}</p>
            <div className="auth-alert" role="alert" data-testid="form-error">
              {ticketProblem ? form.fields.ticket : form.message}
            </div>
            {ticketProblem && (
              <AppLink to="/login" className="button button--secondary">
                {t('signup.backToLogin')}
              </AppLink>
            )}
            <form ref={form.formRef} className="auth-form" data-testid="social-signup-form" noValidate onSubmit={onSubmit}>
              {handover.email && (
                <p className="auth-form__static">
                  <span className="field__label">{t('signup.socialEmail')}</span>
                  <span data-testid="social-signup-email">{handover.email}</span>
                </p>
              )}
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
              <ConsentChecks
                documents={documents}
                checked={accepted}
                error={form.checked && consentMissing ? t('consent.required') : form.fields.consents}
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
              >
                {mutation.isPending ? t('signup.submitting') : t('signup.submit')}
              </button>
            </form>
          </>
        )}
      </div>
    </div>
  );
}
