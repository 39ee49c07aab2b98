import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useNavigate } from 'react-router';
import type { Me } from '@/entities/member/api/me';
import { ApiError } from '@/shared/api/client';
import { useAuth } from '@/entities/member/model/auth-context';
import { markLoggingOut } from '@/entities/member/ui/RequireAuth';
import { Modal } from '@/shared/ui/Modal';
import { useToast } from '@/shared/ui/toast';
import { InputField } from '@/shared/ui/form/Field';
import { useAccountForm } from '../lib/errors';
import { ProviderButtons } from './ProviderButtons';
import { deleteMe } from '../api/delete-me';
import type { OidcProvider } from '../api/oidc';

const HERE = '/settings/account';

export interface DeleteAccountDialogProps {
  me: Me;
  /** The member's linked providers, to log in again with. */
  providers: readonly OidcProvider[];
  onClose: () => void;
}

/**
 * Confirms account deletion: with the password when the member has one; otherwise the
 * session must be under 10 minutes old, so a fresh social log-in is offered.
 */
export function DeleteAccountDialog({ me, providers, onClose }: DeleteAccountDialogProps) {
  const { t } = useTranslation('auth');
  const { logout } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const form = useAccountForm();

  const mutation = useMutation({
    mutationFn: deleteMe,
    onSuccess: () => {
      // Home once logged out. The server revoked every session; the log-out call just tidies up.
      markLoggingOut();
      void logout();
      toast.show(t('delete.deleted'), { tone: 'success' });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'reauthentication_required') {
        void navigate(`/login?next=${encodeURIComponent(HERE)}&reauth=1`);
        return;
      }
      form.refused(error);
    },
  });

  const passwordMissing = me.has_password && password === '';
  const passwordError = form.checked && passwordMissing ? t('invalid.passwordRequired') : undefined;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.check([passwordMissing])) return;
    mutation.mutate(me.has_password ? { password } : {});
  };

  return (
    <Modal title={t('delete.title')} onClose={onClose} closeLabel={t('close')} testId="delete-account-dialog">
      <form ref={form.formRef} className="auth-form" noValidate onSubmit={onSubmit}>
        <p>{t('delete.body')}</p>
        <div className="auth-alert" role="alert">
          {form.message}
        </div>
        {me.has_password ? (
          <>
            <p className="account-muted">{t('delete.passwordPrompt')}</p>
            <input type="text" name="username" autoComplete="username" value={me.email ?? me.nickname} readOnly hidden />
            <InputField
              label={t('fields.password')}
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              error={passwordError ?? form.fields.password}
              data-autofocus
              onChange={(e) => {
                setPassword(e.target.value);
                form.clearField('password');
              }}
            />
          </>
        ) : (
          <>
            <p className="account-muted" data-testid="delete-social-prompt">
              {t('delete.socialPrompt')}
            </p>
            {providers.length > 0 && (
              <ProviderButtons
                providers={providers}
                next={HERE}
                label={(name) => t('delete.reauthWith', { name })}
              />
            )}
          </>
        )}
        <div className="auth-form__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('delete.cancel')}
          </button>
          <button
            type="submit"
            className="button button--danger"
            data-testid="delete-account-confirm"
            disabled={mutation.isPending || form.waiting}
          >
            {mutation.isPending ? t('delete.deleting') : t('delete.confirm')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
