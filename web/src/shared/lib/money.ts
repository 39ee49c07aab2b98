/**
 * Money and other exact numbers in the browser: always big.js, never a float.
 *
 * Rounding rule: round half up (half away from zero: 2.5 → 3, -2.5 → -3) everywhere,
 * including display; banker's rounding (half even) is not used. Division keeps
 * `Big.DP` = 20 decimal places before any display rounding.
 */
import Big from 'big.js';

Big.RM = Big.roundHalfUp;

/** Anything `toBig` accepts; `null`, `undefined` and unparsable values count as zero. */
export type BigInput = Big.BigSource | null | undefined;

/** `x` as a Big; zero when `x` is missing or not a number (e.g. `''`, `'abc'`, `NaN`). */
export function toBig(x: BigInput): Big {
  if (x == null) return new Big(0);
  try {
    return new Big(x);
  } catch {
    return new Big(0);
  }
}

/** `a / b`; zero when the divisor is zero or anything in the division fails (spec §5). */
export function safeDiv(a: BigInput, b: BigInput): Big {
  try {
    const divisor = toBig(b);
    return divisor.eq(0) ? new Big(0) : toBig(a).div(divisor);
  } catch {
    return new Big(0);
  }
}
