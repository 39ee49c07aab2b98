/** Small pieces every portfolio screen uses: amounts that respect the lock, percentages, the two switches. */
import { useId, useState } from 'react';
import { formatAmount, formatPercent, formatRate, formatUnitAmount, MASKED_AMOUNT } from '@/shared/i18n/format';
import { CURRENCY_MODES, type CurrencyMode } from '@/shared/lib/storage';
import { useLocale } from '@/shared/i18n/useLocale';
import { direction } from '@/entities/instrument/model/format';
import { useAmountsLocked } from '@/entities/member/model/amounts-lock';
import { usePortfolioT } from '../locales/messages';
import { useCurrencyMode } from '../lib/prefs';
import { SegmentedControl } from '@/shared/ui/segmented/SegmentedControl';
import './ui.css';

/**
 * Width class of an amount's slot. A masked amount keeps the same class, so its box is
 * as wide as the amount it hides (at least) and nothing moves when the lock changes.
 */
export type AmountSize = 'sm' | 'md' | 'lg' | 'xl';

export interface AmountProps {
  value: string;
  currency: string;
  size?: AmountSize;
  /** `+₩1,200`, coloured by direction (gains, changes). */
  signed?: boolean;
  /** A unit price (two more places). */
  unit?: boolean;
  className?: string;
  testId?: string;
}

/** An amount of money, or `•••••` while the lock is on (`MOAT_META_PORTFOLIO_LOCK`). */
export function Amount({ value, currency, size = 'md', signed = false, unit = false, className, testId }: AmountProps) {
  const locale = useLocale();
  const t = usePortfolioT();
  const [locked] = useAmountsLocked();
  const dir = signed ? direction(value) : undefined;
  const classes = ['pf-amount', `pf-amount--${size}`, dir ? `pf-${dir}` : '', className ?? ''].filter(Boolean).join(' ');
  if (locked) {
    return (
      <span className={classes} data-masked="true" data-testid={testId}>
        <span aria-hidden="true">{MASKED_AMOUNT}</span>
        <span className="visually-hidden">{t('masked')}</span>
      </span>
    );
  }
  const text = unit ? formatUnitAmount(value, currency, locale) : formatAmount(value, currency, locale, signed);
  return (
    <span className={classes} data-masked="false" data-testid={testId}>
      {text}
    </span>
  );
}

/** A percentage (never masked): signed and coloured, or a plain weight. */
export function Percent({ value, weight = false, className, testId }: { value: string; weight?: boolean; className?: string; testId?: string }) {
  const locale = useLocale();
  const dir = weight ? undefined : direction(value);
  return (
    <span className={['pf-percent', dir ? `pf-${dir}` : '', className ?? ''].filter(Boolean).join(' ')} data-testid={testId}>
      {weight ? formatRate(value, locale) : formatPercent(value, locale)}
    </span>
  );
}

/** A change: amount and percentage, e.g. `+₩12,000 (+1.20%)`. */
export function Change({ amount, percent, currency, size = 'md', testId }: { amount: string; percent: string; currency: string; size?: AmountSize; testId?: string }) {
  return (
    <span className="pf-change" data-testid={testId}>
      <Amount value={amount} currency={currency} signed size={size} /> <Percent value={percent} />
    </span>
  );
}

/** Original / KRW / USD (`PORTFOLIO_CURRENCY_MODE`). */
export function CurrencyModeSwitch() {
  const t = usePortfolioT();
  const [mode, setMode] = useCurrencyMode();
  const labelId = useId();
  return (
    <div className="pf-control">
      <span id={labelId} className="pf-control__label">
        {t('controls.currency')}
      </span>
      <SegmentedControl
        labelledBy={labelId}
        testId="currency-mode"
        segments={CURRENCY_MODES.map((m: CurrencyMode) => ({ value: m, label: t(`controls.currencyMode.${m}`), testId: `currency-${m}` }))}
        value={mode}
        onChange={setMode}
      />
    </div>
  );
}

/** Hides or shows every amount (`MOAT_META_PORTFOLIO_LOCK`); the change is announced. */
export function LockToggle() {
  const t = usePortfolioT();
  const [locked, setLocked] = useAmountsLocked();
  const [announcement, setAnnouncement] = useState('');
  return (
    <>
      <button
        type="button"
        className="pf-lock button button--secondary"
        aria-pressed={locked}
        onClick={() => {
          setLocked(!locked);
          setAnnouncement(locked ? t('controls.lockOff') : t('controls.lockOn'));
        }}
        data-testid="lock-toggle"
      >
        <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <rect x="5" y="11" width="14" height="9" rx="2" />
          <path d={locked ? 'M8 11V8a4 4 0 0 1 8 0v3' : 'M8 11V8a4 4 0 0 1 7.5-2'} strokeLinecap="round" />
        </svg>
        <span>{t('controls.lock')}</span>
      </button>
      <span className="visually-hidden" role="status">
        {announcement}
      </span>
    </>
  );
}

/** A section that failed to load: a line and a retry. */
export function LoadFailed({ onRetry, message }: { onRetry: () => void; message?: string }) {
  const t = usePortfolioT();
  return (
    <div className="pf-message" role="alert">
      <p>{message ?? t('loadFailed')}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        {t('retry')}
      </button>
    </div>
  );
}

/** The two switches, as every amount screen shows them. */
export function AmountControls() {
  return (
    <div className="pf-controls">
      <CurrencyModeSwitch />
      <LockToggle />
    </div>
  );
}
