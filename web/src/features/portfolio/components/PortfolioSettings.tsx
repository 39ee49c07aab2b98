import { useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Modal } from '@/shared/ui/Modal';
import { useToast } from '@/shared/ui/toast';
import { focusFirstInvalid, InputField, SelectField } from '@/shared/ui/form/Field';
import { serverFieldErrors } from '@/shared/ui/form/server-errors';
import { failureMessage } from '../lib/failure';
import { usePortfolioT } from '../locales/messages';
import { useDeletePortfolio, useForgetPortfolio } from '../api/delete-portfolio';
import { useUpdatePortfolio } from '../api/update-portfolio';
import { COST_METHODS, type CostMethod, type Portfolio } from '../api/portfolio';
import type { PortfolioPatch } from '../api/update-portfolio';

/** The server takes names of 1–60 characters, brokers up to 60. */
const NAME_MAX_CHARS = 60;
const BROKER_MAX_CHARS = 60;

type Field = 'name' | 'cost_method' | 'broker';

/** "설정": a button that opens the portfolio's settings (rename, cost method, broker, delete). */
export function PortfolioSettingsButton({ portfolio }: { portfolio: Portfolio | undefined }) {
  const t = usePortfolioT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => setOpen(true)}
        disabled={!portfolio}
        aria-haspopup="dialog"
        data-testid="settings-open"
      >
        {t('settings.open')}
      </button>
      {open && portfolio && <SettingsDialog portfolio={portfolio} onClose={() => setOpen(false)} />}
    </>
  );
}

function SettingsDialog({ portfolio, onClose }: { portfolio: Portfolio; onClose: () => void }) {
  const t = usePortfolioT();
  const toast = useToast();
  const navigate = useNavigate();
  const update = useUpdatePortfolio(portfolio.id);
  const remove = useDeletePortfolio(portfolio.id);
  const forget = useForgetPortfolio();
  const formRef = useRef<HTMLFormElement>(null);
  const statusId = useId();
  const [confirming, setConfirming] = useState(false);
  const [name, setName] = useState(portfolio.name);
  const [method, setMethod] = useState<CostMethod>(portfolio.cost_method);
  const [broker, setBroker] = useState(portfolio.broker ?? '');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [message, setMessage] = useState('');
  const busy = update.isPending || remove.isPending;

  const edited = (field: Field) => setErrors(({ [field]: _gone, ...rest }) => rest);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const local: Partial<Record<Field, string>> = {};
    if (!trimmed) local.name = t('create.errors.nameRequired');
    else if ([...trimmed].length > NAME_MAX_CHARS) local.name = t('create.errors.nameTooLong');
    setErrors(local);
    if (Object.keys(local).length) {
      setMessage(t('settings.checkFields'));
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    const body: PortfolioPatch = {};
    if (trimmed !== portfolio.name) body.name = trimmed;
    if (method !== portfolio.cost_method) body.cost_method = method;
    const nextBroker = broker.trim() || null;
    if (nextBroker !== (portfolio.broker || null)) body.broker = nextBroker;
    if (Object.keys(body).length === 0) {
      toast.show(t('settings.unchanged'));
      onClose();
      return;
    }
    setMessage('');
    update.mutate(body, {
      onSuccess: () => {
        toast.show(t('settings.saved'), { tone: 'success' });
        onClose();
      },
      onError: (error) => {
        const fields = serverFieldErrors(error);
        setErrors(fields);
        setMessage(Object.keys(fields).length ? t('settings.checkFields') : failureMessage(t, error, t('settings.failed')));
        requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      },
    });
  };

  const onDelete = () => {
    remove.mutate(undefined, {
      onSuccess: () => {
        toast.show(t('settings.deleted', { name: portfolio.name }), { tone: 'success' });
        void navigate('/portfolios', { replace: true });
        // Once the page is gone, its cached figures go too (asking again would only answer 404).
        setTimeout(() => forget(portfolio.id), 0);
      },
      onError: (error) => {
        setConfirming(false);
        setMessage(failureMessage(t, error, t('settings.deleteFailed')));
      },
    });
  };

  if (confirming) {
    return (
      <Modal title={t('settings.confirmTitle')} closeLabel={t('settings.close')} onClose={() => setConfirming(false)} testId="delete-portfolio-dialog">
        <p className="pf-dialog__body">{t('settings.confirmBody', { name: portfolio.name })}</p>
        <div className="pf-form__actions">
          <button type="button" className="button button--secondary" onClick={() => setConfirming(false)} disabled={busy} data-autofocus>
            {t('settings.back')}
          </button>
          <button type="button" className="button pf-button--danger" onClick={onDelete} disabled={busy} data-testid="delete-portfolio-confirm">
            {remove.isPending ? t('settings.deleting') : t('settings.confirm')}
          </button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title={t('settings.title')} closeLabel={t('settings.close')} onClose={onClose} testId="settings-dialog">
      <form ref={formRef} className="pf-form" onSubmit={onSubmit} noValidate aria-describedby={message ? statusId : undefined} data-testid="settings-form">
        <InputField
          label={t('settings.name')}
          value={name}
          maxLength={NAME_MAX_CHARS}
          required
          onChange={(e) => {
            setName(e.target.value);
            edited('name');
          }}
          error={errors.name}
          name="name"
          data-autofocus
        />
        <SelectField
          label={t('settings.costMethod')}
          value={method}
          onChange={(e) => {
            setMethod(e.target.value as CostMethod);
            edited('cost_method');
          }}
          options={COST_METHODS.map((m) => ({ value: m, label: t(`create.costMethods.${m}`) }))}
          hint={t('settings.costMethodHint')}
          error={errors.cost_method}
          name="cost_method"
        />
        <InputField
          label={t('settings.broker')}
          placeholder={t('create.brokerPlaceholder')}
          value={broker}
          maxLength={BROKER_MAX_CHARS}
          onChange={(e) => {
            setBroker(e.target.value);
            edited('broker');
          }}
          hint={t('settings.brokerHint')}
          error={errors.broker}
          name="broker"
        />
        <p id={statusId} className="pf-form__message" role="alert" data-testid="settings-message">
          {message}
        </p>
        <div className="pf-form__actions">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
            {t('settings.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={busy} data-testid="settings-save">
            {update.isPending ? t('settings.saving') : t('settings.save')}
          </button>
        </div>
      </form>
      <div className="pf-danger" aria-labelledby={`${statusId}-danger`} role="group">
        <h3 id={`${statusId}-danger`} className="pf-danger__title">
          {t('settings.dangerTitle')}
        </h3>
        <p className="field__hint">{t('settings.dangerHint')}</p>
        <button
          type="button"
          className="button pf-button--danger-outline"
          onClick={() => setConfirming(true)}
          disabled={busy}
          data-testid="delete-portfolio"
        >
          {t('settings.delete')}
        </button>
      </div>
    </Modal>
  );
}
