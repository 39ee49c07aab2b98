/** Labelled form controls with their hint and error, wired for assistive technology. */
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { ApiError } from '@/shared/api/client';
import type { PortfolioT } from './messages';

interface Described {
  label: string;
  /** Shown under the control and tied to it; marks it invalid. */
  error?: string | undefined;
  hint?: ReactNode;
  className?: string;
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

function Below({ id, hint, error }: { id: string; hint?: ReactNode; error?: string | undefined }) {
  return (
    <>
      {hint && (
        <div id={`${id}-hint`} className="pf-field__hint">
          {hint}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} className="pf-field__error" data-testid="field-error">
          {error}
        </p>
      )}
    </>
  );
}

export type InputFieldProps = Described & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'aria-invalid' | 'aria-describedby' | 'className'>;

export function InputField({ label, error, hint, className, ...input }: InputFieldProps) {
  const id = useId();
  return (
    <div className={`pf-field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id} className="pf-field__label">
        {label}
      </label>
      <input
        id={id}
        className="pf-field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...input}
      />
      <Below id={id} hint={hint} error={error} />
    </div>
  );
}

export type SelectFieldProps = Described &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'aria-invalid' | 'aria-describedby' | 'className'> & {
    options: readonly { value: string; label: string }[];
  };

export function SelectField({ label, error, hint, className, options, ...select }: SelectFieldProps) {
  const id = useId();
  return (
    <div className={`pf-field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id} className="pf-field__label">
        {label}
      </label>
      <select
        id={id}
        className="pf-field__input pf-field__select"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...select}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Below id={id} hint={hint} error={error} />
    </div>
  );
}

/** Moves focus to the first invalid control of `form` (after a failed submit). */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}

/**
 * The member-facing message of a failure: ours for the codes we know, else `fallback`
 * (the server's own messages are English, for logs and programs).
 */
export function failureMessage(t: PortfolioT, error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.code === 'network_error') return t('errors.network_error');
  if (error.code === 'not_found') return t('errors.not_found');
  return fallback;
}

/** The server's per-field messages of a rejected form, under the form's own field names. */
export function serverFields(error: unknown, aliases: Readonly<Record<string, string>> = {}): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(error.fields)) out[aliases[field] ?? field] = message;
  return out;
}
