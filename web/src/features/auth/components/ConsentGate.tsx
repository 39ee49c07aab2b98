import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { memberKeys } from '@/entities/member/api/keys';
import { meQueryOptions } from '@/entities/member/api/me';
import { useAuth } from '@/entities/member/model/auth-context';
import { Modal } from '@/shared/ui/Modal';
import { acceptConsents, legalQueryOptions } from '../api/legal';
import { errorMessage } from '../lib/errors';
import { ConsentChecks, consentsOf } from './ConsentChecks';
import './auth.css';

export { messagesReady } from '../locales/messages';

/**
 * Asks a logged-in member to accept a new version of the terms or the privacy policy
 * (`Me.consent_required`) before going on: a modal with no way around it but log-out.
 */
export function ConsentGate() {
  const { t } = useTranslation('auth');
  const { userId, logout } = useAuth();
  const queryClient = useQueryClient();
  const me = useQuery({ ...meQueryOptions(userId), enabled: userId !== null });
  const required = me.data?.consent_required ?? [];
  const legal = useQuery({ ...legalQueryOptions(), enabled: required.length > 0 });
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [tried, setTried] = useState(false);
  const mutation = useMutation({
    mutationFn: acceptConsents,
    onSuccess: (account) => queryClient.setQueryData(memberKeys.me(userId), account),
  });
  if (userId === null || required.length === 0 || !legal.data) return null;
  const documents = legal.data.filter((d) => required.includes(d.kind));
  const missing = documents.some((d) => !checked.has(d.kind));
  return (
    <Modal title={t('consent.gateTitle')} onClose={() => void logout()} closeLabel={t('consent.logout')}>
      <form
        className="auth-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (!missing) mutation.mutate(consentsOf(documents, checked));
        }}
      >
        <p>{t('consent.gateBody')}</p>
        <ConsentChecks
          documents={documents}
          checked={checked}
          error={tried && missing ? t('consent.required') : undefined}
          onChange={(kind, on) =>
            setChecked((prev) => {
              const next = new Set(prev);
              if (on) next.add(kind);
              else next.delete(kind);
              return next;
            })
          }
        />
        {mutation.isError && (
          <p className="auth-alert" role="alert">
            {errorMessage(t, mutation.error)}
          </p>
        )}
        <button type="submit" className="button button--primary auth-form__submit" disabled={mutation.isPending}>
          {t('consent.agree')}
        </button>
      </form>
    </Modal>
  );
}
