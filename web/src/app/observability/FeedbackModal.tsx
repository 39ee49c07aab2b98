import { useState, type FormEvent } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useAuth } from '@/entities/member/model/auth-context';
import { focusFirstInvalid, InputField, TextAreaField } from '@/shared/ui/form/Field';
import { Modal } from '@/shared/ui/Modal';
import { useToast } from '@/shared/ui/toast';
import { sendFeedback } from './index';
import './feedback.css';

export { messagesReady } from './messages';

/** Longest feedback text accepted by the form. */
export const FEEDBACK_MAX_CHARS = 4000;

/** Deliberately loose: the address is only for a reply; a typo must not block the feedback. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
      focusFirstInvalid(event.currentTarget);
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
        <TextAreaField
          label={t('verbatim')}
          error={errors.verbatim}
          value={verbatim}
          maxLength={FEEDBACK_MAX_CHARS}
          required
          data-autofocus=""
          data-testid="feedback-verbatim"
          onChange={(event) => setVerbatim(event.target.value)}
        />
        <InputField
          label={t('name')}
          value={name}
          autoComplete="name"
          maxLength={100}
          data-testid="feedback-name"
          onChange={(event) => setName(event.target.value)}
        />
        <InputField
          label={t('email')}
          hint={t('emailHint')}
          error={errors.email}
          type="email"
          value={email}
          autoComplete="email"
          maxLength={254}
          data-testid="feedback-email"
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" className="button button--primary feedback-form__submit" disabled={sending} data-testid="feedback-submit">
          {t('submit')}
        </button>
      </form>
    </Modal>
  );
}
