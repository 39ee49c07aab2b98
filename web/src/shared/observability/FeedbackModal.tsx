import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '@/shared/auth/auth-context';
import { Modal } from '@/shared/ui/Modal';
import { useToast } from '@/shared/ui/toast';
import { sendFeedback } from './index';
import './feedback.css';

export { messagesReady } from './messages';

/** Longest feedback text accepted by the form. */
export const FEEDBACK_MAX_CHARS = 4000;

/** Deliberately loose: the address is only for a reply; a typo must not block the feedback. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface FieldProps {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}

/** A labelled control with its hint and error, wired for assistive technology. */
function Field({ label, error, hint, children }: FieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="feedback-field">
      <label htmlFor={id} className="feedback-field__label">
        {label}
      </label>
      {children({
        id,
        ...(error ? { 'aria-invalid': true } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {hint && (
        <p id={`${id}-hint`} className="feedback-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="feedback-field__error">
          {error}
        </p>
      )}
    </div>
  );
}

export interface FeedbackModalProps {
  onClose: () => void;
}

/**
 * Route modal `?feedback=routeModalTrue`: the visitor's feedback (text, name, email)
 * attached to the recorded session with the time it was sent (spec §3). The name starts
 * as the member's nickname.
 */
export function FeedbackModal({ onClose }: FeedbackModalProps) {
  const { t } = useTranslation('feedback');
  const { t: tShell } = useTranslation();
  const { nickname } = useAuth();
  const toast = useToast();
  const [verbatim, setVerbatim] = useState('');
  const [name, setName] = useState(nickname ?? '');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<{ verbatim?: string; email?: string }>({});
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = {
      ...(verbatim.trim() ? {} : { verbatim: t('verbatimRequired') }),
      ...(email.trim() && !EMAIL.test(email.trim()) ? { email: t('emailInvalid') } : {}),
    };
    setErrors(found);
    if (found.verbatim || found.email) {
      event.currentTarget.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setSending(true);
    const sent = await sendFeedback({ verbatim: verbatim.trim(), userName: name.trim(), userEmail: email.trim() });
    setSending(false);
    if (!sent) {
      toast.show(t('unavailable'), { tone: 'error' });
      return;
    }
    toast.show(t('sent'), { tone: 'success' });
    onClose();
  };

  return (
    <Modal title={t('title')} closeLabel={tShell('common.close')} onClose={onClose} testId="modal-feedback">
      <form className="feedback-form" noValidate onSubmit={(event) => void submit(event)}>
        <p className="feedback-form__intro">{t('intro')}</p>
        <Field label={t('verbatim')} error={errors.verbatim}>
          {(control) => (
            <textarea
              {...control}
              className="feedback-field__input"
              value={verbatim}
              maxLength={FEEDBACK_MAX_CHARS}
              required
              data-autofocus=""
              data-testid="feedback-verbatim"
              onChange={(event) => setVerbatim(event.target.value)}
            />
          )}
        </Field>
        <Field label={t('name')}>
          {(control) => (
            <input
              {...control}
              className="feedback-field__input"
              value={name}
              autoComplete="name"
              maxLength={100}
              data-testid="feedback-name"
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </Field>
        <Field label={t('email')} hint={t('emailHint')} error={errors.email}>
          {(control) => (
            <input
              {...control}
              type="email"
              className="feedback-field__input"
              value={email}
              autoComplete="email"
              maxLength={254}
              data-testid="feedback-email"
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="button button--primary feedback-form__submit" disabled={sending} data-testid="feedback-submit">
          {t('submit')}
        </button>
      </form>
    </Modal>
  );
}
