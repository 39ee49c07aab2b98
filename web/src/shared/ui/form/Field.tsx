/**
 * Labelled form controls with their hint and error, wired for assistive technology: the
 * label names the control, the hint and the error describe it, an error marks it
 * invalid. Every form of the app uses these (log-in, account, portfolios, transactions,
 * feedback).
 */
import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import './Field.css';

/** What a control inside a {@link Field} receives. */
export interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

interface Described {
  label: ReactNode;
  /** Shown under the control and tied to it; marks it invalid. */
  error?: string | undefined;
  /** Guidance under the control (rules, formats), tied to it. */
  hint?: ReactNode;
  className?: string | undefined;
}

export interface FieldProps extends Described {
  children: (control: ControlProps) => ReactNode;
}

/** A label, any control (`children` renders it with the props that tie it up), its hint and error. */
export function Field({ label, error, hint, className, children }: FieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {children({
        id,
        ...(error ? { 'aria-invalid': true } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {hint && (
        <div id={`${id}-hint`} className="field__hint">
          {hint}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} className="field__error" data-testid="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

type Native<A> = Omit<A, 'id' | 'aria-invalid' | 'aria-describedby' | 'className'>;

export type InputFieldProps = Described & Native<InputHTMLAttributes<HTMLInputElement>>;

export function InputField({ label, error, hint, className, ...input }: InputFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => <input {...control} className="field__input" {...input} />}
    </Field>
  );
}

export type SelectFieldProps = Described &
  Native<SelectHTMLAttributes<HTMLSelectElement>> & {
    options: readonly { value: string; label: string }[];
  };

export function SelectField({ label, error, hint, className, options, ...select }: SelectFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => (
        <select {...control} className="field__input field__select" {...select}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export type TextAreaFieldProps = Described & Native<TextareaHTMLAttributes<HTMLTextAreaElement>>;

export function TextAreaField({ label, error, hint, className, ...textarea }: TextAreaFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => <textarea {...control} className="field__input" {...textarea} />}
    </Field>
  );
}

/** Moves focus to the first invalid control of `form` (after a failed submit). */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}
