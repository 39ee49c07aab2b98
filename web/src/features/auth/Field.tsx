import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'aria-invalid' | 'aria-describedby'> {
  label: string;
  /** Shown under the input and tied to it; marks it invalid. */
  error?: string | undefined;
  /** Guidance under the input (rules), tied to it. */
  hint?: ReactNode;
}

/** A labelled input with its hint and error, wired for assistive technology. */
export function Field({ label, error, hint, className, ...input }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint && (
        <div id={hintId} className="field__hint">
          {hint}
        </div>
      )}
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

/** One live rule under a field: marked met or not as the member types. */
export function Rule({ met, children }: { met: boolean; children: ReactNode }) {
  const { t } = useTranslation('auth');
  return (
    <span className={`rule${met ? ' rule--met' : ''}`} data-met={met}>
      <span className="rule__mark" aria-hidden="true">
        {met ? '✓' : '•'}
      </span>
      {children}
      <span className="visually-hidden"> ({met ? t('rules.met') : t('rules.unmet')})</span>
    </span>
  );
}

/** Moves focus to the first invalid input of `form` (after a failed submit). */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  form?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
}
