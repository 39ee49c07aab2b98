/**
 * When an article was published, as a person says it: 방금 (under a minute), N분 전,
 * N시간 전, then the date (with the year when it is not this year's).
 */
import { useEffect, useState } from 'react';
import { formatDate, intlLocale } from '@/shared/i18n/format';
import type { Locale } from '@/shared/lib/storage';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** How often relative times are brought up to date on screen. */
export const RELATIVE_TIME_TICK_MS = MINUTE_MS;

const relativeFormats = new Map<Locale, Intl.RelativeTimeFormat>();

function relative(locale: Locale): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: 'always', style: 'long' });
    relativeFormats.set(locale, format);
  }
  return format;
}

/**
 * `iso` relative to `now`: `justNow` under a minute (and for a time slightly ahead of
 * this clock), minutes, hours under a day, then the date.
 */
export function formatRelativeTime(iso: string, locale: Locale, now: number, justNow: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const ago = now - at;
  if (ago < MINUTE_MS) return justNow;
  if (ago < HOUR_MS) return relative(locale).format(-Math.floor(ago / MINUTE_MS), 'minute');
  if (ago < DAY_MS) return relative(locale).format(-Math.floor(ago / HOUR_MS), 'hour');
  const sameYear = new Date(at).getFullYear() === new Date(now).getFullYear();
  return formatDate(at, locale, sameYear ? { month: 'short', day: 'numeric' } : { dateStyle: 'medium' });
}

/** An absolute date and time (`2026년 11월 28일 오후 3:04`). */
export function formatDateTime(iso: string, locale: Locale): string {
  return formatDate(iso, locale, { dateStyle: 'long', timeStyle: 'short' });
}

/** The time now, renewed every {@link RELATIVE_TIME_TICK_MS} while mounted. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), RELATIVE_TIME_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}
