/**
 * The portfolio area on a stock's page: the 거래 기록 (record a trade) action beside the
 * name, and the member's own position in the stock across their portfolios.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import Big from 'big.js';
import { useQuote } from '@/entities/instrument/api/quote';
import { useAuth } from '@/entities/member/model/auth-context';
import type { StockSlotProps } from '@/shared/area/types';
import { formatQuantity } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { AppLink } from '@/shared/ui/AppLink';
import { SectionCard } from '@/shared/ui/card/SectionCard';
import { usePortfolioList } from '../api/list';
import { valuationQueryOptions } from '../api/valuation';
import { combine, tradeFormPath, type Held } from '../lib/position';
import { usePortfolioT } from '../locales/messages';
import { Amount, Percent } from './ui';
import './stock-slots.css';

export { messagesReady } from '../locales/messages';

/**
 * 거래 기록: opens the transaction form with the instrument and today's price filled in.
 * A member with several portfolios picks one first; one without any creates one; a
 * visitor logs in and comes back.
 */
export function RecordTradeAction({ instrumentId }: StockSlotProps) {
  const t = usePortfolioT();
  const { isLoggedIn } = useAuth();
  if (!isLoggedIn) {
    const next = encodeURIComponent(`/stocks/${instrumentId}`);
    return (
      <AppLink to={`/login?next=${next}`} className="button button--secondary stock-trade">
        {t('stock.record')}
      </AppLink>
    );
  }
  return <MemberTradeAction instrumentId={instrumentId} />;
}

function MemberTradeAction({ instrumentId }: StockSlotProps) {
  const t = usePortfolioT();
  const list = usePortfolioList('original');
  const quote = useQuote(instrumentId);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const wrap = useRef<HTMLDivElement>(null);
  // The choice closes on a tap elsewhere.
  useEffect(() => {
    if (!open) return;
    const away = (event: PointerEvent) => {
      if (!wrap.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);
  const price = quote.data?.price;
  const portfolios = list.data?.portfolios ?? [];

  if (!list.data) {
    return (
      <button type="button" className="button button--secondary stock-trade" disabled>
        {t('stock.record')}
      </button>
    );
  }
  if (portfolios.length === 0) {
    return (
      <AppLink to="/portfolios" className="button button--secondary stock-trade">
        {t('stock.record')}
      </AppLink>
    );
  }
  if (portfolios.length === 1) {
    return (
      <AppLink to={tradeFormPath(portfolios[0]!.portfolio.id, instrumentId, price)} className="button button--primary stock-trade">
        {t('stock.record')}
      </AppLink>
    );
  }
  return (
    // Escape closes the choice (the key event bubbles from the button or a link in it).
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div
      ref={wrap}
      className="stock-trade__wrap"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) setOpen(false);
      }}
    >
      <button
        type="button"
        className="button button--primary stock-trade"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
      >
        {t('stock.record')}
      </button>
      {open && (
        <div id={menuId} className="stock-trade__menu card">
          <p className="stock-trade__prompt">{t('stock.pickPortfolio')}</p>
          <ul>
            {portfolios.map(({ portfolio }) => (
              <li key={portfolio.id}>
                <AppLink to={tradeFormPath(portfolio.id, instrumentId, price)}>{portfolio.name}</AppLink>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/**
 * 내 보유 (my position): quantity, average cost, value and return of the stock across the
 * member's portfolios, each portfolio's part when there are several. Nothing for a
 * visitor or when the member does not hold it.
 */
export function StockPosition({ instrumentId }: StockSlotProps) {
  const { isLoggedIn } = useAuth();
  return isLoggedIn ? <MemberPosition instrumentId={instrumentId} /> : null;
}

function MemberPosition({ instrumentId }: StockSlotProps) {
  const t = usePortfolioT();
  const locale = useLocale();
  const { userId } = useAuth();
  const list = usePortfolioList('original');
  const portfolios = list.data?.portfolios ?? [];
  const valuations = useQueries({
    queries: portfolios.map(({ portfolio }) => valuationQueryOptions(userId, portfolio.id, 'original')),
  });
  const held: Held[] = [];
  portfolios.forEach(({ portfolio }, i) => {
    const holding = valuations[i]?.data?.holdings.find((h) => h.instrument === instrumentId);
    if (holding && new Big(holding.quantity).gt(0)) held.push({ portfolioId: portfolio.id, name: portfolio.name, holding });
  });
  if (held.length === 0) return null;
  const currency = held[0]!.holding.currency;
  const sum = combine(held);

  return (
    <SectionCard title={t('stock.position')} testId="stock-position">
      <dl className="stock-position">
        <div>
          <dt>{t('stock.quantity')}</dt>
          <dd>{t('stock.shares', { quantity: formatQuantity(sum.quantity, locale) })}</dd>
        </div>
        <div>
          <dt>{t('stock.averageCost')}</dt>
          <dd>
            <Amount value={sum.averageCost} currency={currency} unit />
          </dd>
        </div>
        <div>
          <dt>{t('stock.value')}</dt>
          <dd>
            <Amount value={sum.value} currency={currency} />
          </dd>
        </div>
        <div>
          <dt>{t('stock.return')}</dt>
          <dd>
            <Amount value={sum.gain} currency={currency} signed /> <Percent value={sum.returnPercent} />
          </dd>
        </div>
      </dl>
      {held.length > 1 && (
        <ul className="stock-position__parts" aria-label={t('stock.byPortfolio')}>
          {held.map((h) => (
            <li key={h.portfolioId}>
              <AppLink to={`/portfolios/${h.portfolioId}`}>{h.name}</AppLink>
              <span>{formatQuantity(h.holding.quantity, locale)}</span>
              <Percent value={h.holding.return_percent} />
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
