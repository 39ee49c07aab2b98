import { useTranslation } from '@/shared/i18n/useTranslation';
import { useAmountsLocked } from '@/entities/member/model/amounts-lock';
import { MASKED_AMOUNT } from '@/shared/i18n/format';

/**
 * An amount, or `•••••` while amounts are hidden (`MOAT_META_PORTFOLIO_LOCK`). Both
 * stay on one line in the same box, so hiding moves nothing.
 */
export function Amount({ text, className }: { text: string; className?: string }) {
  const { t } = useTranslation('dividends');
  const [locked] = useAmountsLocked();
  const classes = `dividends-amount${className ? ` ${className}` : ''}`;
  if (!locked) {
    return (
      <span className={classes} data-testid="amount">
        {text}
      </span>
    );
  }
  return (
    <span className={`${classes} dividends-amount--masked`} data-testid="amount" data-masked="true">
      <span aria-hidden="true">{MASKED_AMOUNT}</span>
      <span className="visually-hidden">{t('me.masked')}</span>
    </span>
  );
}
