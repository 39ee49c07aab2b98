/** Plain formatting of the console's figures (no React). */
import { formatDate, formatNumber } from '@/shared/i18n/format';
import type { Locale } from '@/shared/lib/storage';

/** A replay position or a length as a clock: `0:05`, `12:34`, `1:02:03`. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Milliseconds between two RFC 3339 times (0 when either is unreadable). */
export function millisBetween(from: string, to: string): number {
  const d = Date.parse(to) - Date.parse(from);
  return Number.isFinite(d) ? Math.max(0, d) : 0;
}

/** A date and time in the locale's short style. */
export function formatDateTime(value: string | number, locale: Locale): string {
  return formatDate(value, locale, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A duration in milliseconds: whole ms from 10 ms up, one decimal below. */
export function formatMillis(ms: number, locale: Locale): string {
  const digits = Math.abs(ms) < 10 ? 1 : 0;
  return `${formatNumber(ms, locale, { maximumFractionDigits: digits })} ms`;
}

/** A web vital's value: milliseconds, or CLS (unitless) with three decimals. */
export function formatVital(value: number, unit: string, locale: Locale): string {
  if (unit === 'ms') return formatMillis(value, locale);
  return formatNumber(value, locale, { maximumFractionDigits: 3 });
}

/** A byte count: `512 B`, `12.3 KB`, `4.5 MB`. */
export function formatBytes(bytes: number, locale: Locale): string {
  if (bytes < 1024) return `${formatNumber(bytes, locale)} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${formatNumber(kb, locale, { maximumFractionDigits: 1 })} KB`;
  return `${formatNumber(kb / 1024, locale, { maximumFractionDigits: 1 })} MB`;
}

/** A URL without its scheme and host when it is this app's own (`/stocks/KRX:005930`). */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url, window.location.origin);
    const path = `${u.pathname}${u.search}${u.hash}`;
    return u.origin === window.location.origin ? path : `${u.host}${path}`;
  } catch {
    return url;
  }
}

/** The nickname in a session's user object (the app identifies members with it), if any. */
export function nicknameOf(userObject: unknown): string | undefined {
  if (typeof userObject !== 'object' || userObject === null) return undefined;
  const nickname = (userObject as Record<string, unknown>).nickname;
  return typeof nickname === 'string' && nickname ? nickname : undefined;
}
