/** The portfolio area's pieces on a stock's page: the trade form's address, a position summed over portfolios. */
import Big from 'big.js';
import type { Holding } from '../api/valuation';

/** The form of a new trade of `instrumentId` in portfolio `id`, at `price` when known. */
export function tradeFormPath(id: number, instrumentId: string, price: string | undefined): string {
  const query = new URLSearchParams({ instrument: instrumentId });
  if (price) query.set('price', price);
  return `/portfolios/${id}/transactions/new?${query.toString()}`;
}

/** One portfolio's holding of the stock. */
export interface Held {
  portfolioId: number;
  name: string;
  holding: Holding;
}

/** Quantity, cost and value summed over portfolios (in the stock's own currency). */
export function combine(held: readonly Held[]) {
  const quantity = held.reduce((s, h) => s.plus(h.holding.quantity), new Big(0));
  const cost = held.reduce((s, h) => s.plus(h.holding.cost_basis), new Big(0));
  const value = held.reduce((s, h) => s.plus(h.holding.market_value), new Big(0));
  const gain = value.minus(cost);
  return {
    quantity: quantity.toFixed(),
    averageCost: quantity.eq(0) ? '0' : cost.div(quantity).toFixed(),
    value: value.toFixed(),
    gain: gain.toFixed(),
    // Division by zero yields zero (spec §5).
    returnPercent: cost.eq(0) ? '0' : gain.div(cost).times(100).round(2).toFixed(),
  };
}

