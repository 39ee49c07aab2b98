import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { ApiError } from '@/shared/api/client';
import { codeText, errorText } from '@/shared/api/error-text';
import { focusFirstInvalid } from '@/shared/ui/form/Field';
import { serverFieldErrors } from '@/shared/ui/form/server-errors';

/** Server (and client) error codes with a friendly message of their own. */
const KNOWN_CODES = [
  'invalid_input',
  'email_taken',
  'nickname_taken',
  'invalid_credentials',
  'unauthenticated',
  'token_invalid',
  'forbidden',
  'account_banned',
  'reauthentication_required',
  'not_found',
  'rate_limited',
  'network_error',
  'oidc_failed',
  'oidc_cancelled',
  'mail_not_configured',
] as const;
type KnownCode = (typeof KNOWN_CODES)[number];

const isKnown = (code: string): code is KnownCode => (KNOWN_CODES as readonly string[]).includes(code);

type AuthT = ReturnType<typeof useTranslation<'auth'>>['t'];

/** The accounts' own wording for `code`, else the app's message of the code (never the server's English). */
export function codeMessage(t: AuthT, code: string): string {
  if (isKnown(code)) return t(`errors.${code}`);
  return codeText(code);
}

/** The friendly message for any failure. */
export function errorMessage(t: AuthT, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'rate_limited' && error.retryAfter) return t('errors.rateLimitedWait', { seconds: error.retryAfter });
    return isKnown(error.code) ? t(`errors.${error.code}`) : errorText(error);
  }
  return t('errors.unknown');
}

/** Per-field messages of a failure: the server's, or for `409 *_taken` the friendly one on its field. */
export function fieldMessages(t: AuthT, error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  if (error.code === 'email_taken' || error.code === 'nickname_taken') {
    const field = Object.keys(error.fields)[0] ?? (error.code === 'email_taken' ? 'email' : 'nickname');
    return { [field]: t(`errors.${error.code}`) };
  }
  return serverFieldErrors(error);
}

/**
 * A form's failure: the message for the whole form (announced), per-field messages
 * (cleared field by field as the member edits), and the `429` wait, counted down, during
 * which the form stays disabled.
 */
export function useFormError(initialCode?: string | null) {
  const { t } = useTranslation('auth');
  const [message, setMessage] = useState<string | null>(() => (initialCode ? codeMessage(t, initialCode) : null));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [wait, setWait] = useState(0);

  useEffect(() => {
    if (wait <= 0) return;
    const id = setTimeout(() => setWait((s) => s - 1), 1000);
    return () => clearTimeout(id);
  }, [wait]);

  const fail = (error: unknown) => {
    const byField = fieldMessages(t, error);
    setFields(byField);
    if (error instanceof ApiError && error.code === 'rate_limited') {
      setWait(error.retryAfter ?? 0);
      setMessage(error.retryAfter ? null : errorMessage(t, error));
    } else {
      setWait(0);
      setMessage(Object.keys(byField).length > 0 ? t('errors.checkFields') : errorMessage(t, error));
    }
  };

  return {
    /** Message for the whole form, or `null`. */
    message: wait > 0 ? t('errors.rateLimitedWait', { seconds: wait }) : message,
    fields,
    /** Rate-limited: submitting is disabled until the wait is over. */
    waiting: wait > 0,
    fail,
    /** A message of our own (not from an API error). */
    show: (text: string) => {
      setFields({});
      setMessage(text);
    },
    reset: () => {
      setFields({});
      setMessage(null);
    },
    clearField: (name: string) =>
      setFields((f) => {
        if (!(name in f)) return f;
        const { [name]: _removed, ...rest } = f;
        return rest;
      }),
  };
}

/** A check's result on this side: a field's problem (its message, or `true`), or any falsy value for none. */
type Problem = string | boolean | null | undefined;

/**
 * What every account form does around its fields (log-in, sign-up, social sign-up,
 * nickname, password, deletion): this side's problems shown once the member has tried
 * to send, the server's per-field problems otherwise, the focus moved to the first
 * invalid field after a failed try, and the form's own message ({@link useFormError}).
 */
export function useAccountForm(initialCode?: string | null) {
  const form = useFormError(initialCode);
  const formRef = useRef<HTMLFormElement>(null);
  const [checked, setChecked] = useState(false);
  const focusInvalid = () => requestAnimationFrame(() => focusFirstInvalid(formRef.current));
  return {
    ...form,
    formRef,
    /** Whether the member has tried to send since the form was last settled. */
    checked,
    /** A field's problem: this side's (`mine`) once a send was tried, else the server's. */
    errorOf: (name: string, mine: string | undefined) => (checked ? mine : undefined) ?? form.fields[name],
    /**
     * On submit, with this side's problems: `true` to send (the form's message cleared);
     * else the first invalid field takes the focus and, with `message`, the form says so.
     */
    check(problems: readonly Problem[], message?: string): boolean {
      setChecked(true);
      if (problems.some(Boolean)) {
        if (message) form.show(message);
        focusInvalid();
        return false;
      }
      form.reset();
      return true;
    },
    /** The server refused: its messages, and the focus on the first invalid field. */
    refused(error: unknown) {
      form.fail(error);
      focusInvalid();
    },
    /** Saved: this side's problems wait for the next try again. */
    settle: () => setChecked(false),
  };
}
