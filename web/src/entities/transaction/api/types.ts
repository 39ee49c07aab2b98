/**
 * A portfolio's transactions (docs/portfolio.md) as the API sends and takes them: the
 * generated schema (`shared/api/schema.d.ts`), with the closed set of kinds the server
 * documents but sends as `string` narrowed here. Every amount, price, quantity and rate
 * is a decimal string; dates are `YYYY-MM-DD`.
 */
import type { InstrumentId } from '@/entities/instrument/api/types';
import type { ApiSchema } from '@/shared/api/client';
import type { Narrow } from '@/shared/api/narrow';

export type TxKind = 'buy' | 'sell' | 'dividend' | 'deposit' | 'withdrawal' | 'fee' | 'tax' | 'split';
export const TX_KINDS = ['buy', 'sell', 'dividend', 'deposit', 'withdrawal', 'fee', 'tax', 'split'] as const satisfies readonly TxKind[];
// Every kind is listed once: a kind added to the type fails to compile here.
type MissingKind = Exclude<TxKind, (typeof TX_KINDS)[number]>;
const everyKindListed: MissingKind extends never ? true : MissingKind = true;
void everyKindListed;

/** A split's ratio: `denominator` old shares become `numerator` new ones. */
export type SplitRatio = ApiSchema<'SplitDto'>;

/** `GET /api/portfolios/{id}/transactions` items; `POST`/`PUT` answers. */
export type Transaction = Narrow<ApiSchema<'TransactionDto'>, { kind: TxKind; instrument_id?: InstrumentId | null }>;

/** What `POST /api/portfolios/{id}/transactions` and `PUT …/{txId}` take. */
export type NewTransaction = Narrow<ApiSchema<'TransactionInput'>, { kind: TxKind; instrument_id?: InstrumentId | null }>;

/**
 * A transaction that cannot be applied (a sell of more than was held, left by old data):
 * the portfolio's figures stop before it. `code` is a validation issue code
 * (`sell_exceeds_holding`, …), `field` the transaction's field at fault.
 */
export type LedgerIssue = Narrow<ApiSchema<'LedgerIssueDto'>, { kind: TxKind; instrument_id?: InstrumentId | null }>;
