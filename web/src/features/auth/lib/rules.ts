/**
 * The contract's rules for new values, checked as the member types. The server is the
 * authority (it also refuses reserved nicknames, common passwords, …).
 */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;
export const NICKNAME_MIN = 2;
export const NICKNAME_MAX = 20;

/** Length in Unicode scalar values, as the server counts. */
const length = (v: string) => [...v].length;

export type PasswordProblem = 'short' | 'long';
export type NicknameProblem = 'length' | 'chars';

export function passwordProblem(v: string): PasswordProblem | undefined {
  const n = length(v);
  return n < PASSWORD_MIN ? 'short' : n > PASSWORD_MAX ? 'long' : undefined;
}

export function nicknameProblem(v: string): NicknameProblem | undefined {
  const n = length(v);
  if (n < NICKNAME_MIN || n > NICKNAME_MAX) return 'length';
  // Hangul syllables, Latin letters, digits and `_`.
  return /^[\uAC00-\uD7A3A-Za-z0-9_]+$/.test(v) ? undefined : 'chars';
}

/** A rough shape check; the server validates for real. */
export function emailLooksValid(v: string): boolean {
  return /^[^\s@]+@[^\s@]+$/.test(v.trim());
}
